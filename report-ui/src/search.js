// Fuzzy search over models, sources, seeds, snapshots, exposures and columns (fuzzysort:
// fast enough for hundreds of thousands of targets, prepared lazily on first search).
import fuzzysort from "fuzzysort";

export function searchIndex(model) {
  let nodes = null;
  let columns = null;
  const prepare = () => {
    if (nodes) return;
    nodes = model.nodeName.map((name, node) => ({
      node,
      key: fuzzysort.prepare(name),
      id: fuzzysort.prepare(model.nodeId[node]),
    }));
    columns = new Array(model.C);
    for (let c = 0; c < model.C; c++) {
      columns[c] = { col: c, key: fuzzysort.prepare(model.nodeName[model.colNode[c]] + "." + model.colName[c]) };
    }
  };
  return {
    prepare,
    search(query, limit = 40) {
      query = query.trim();
      if (!query) return [];
      prepare();
      const wantColumns = query.includes(".") || query.length >= 2;
      const nodeHits = fuzzysort.go(query, nodes, { keys: ["key", "id"], limit: 25, threshold: 0.3 });
      const colHits = wantColumns ? fuzzysort.go(query, columns, { key: "key", limit: 40, threshold: 0.3 }) : [];
      const out = [];
      for (const hit of nodeHits) out.push({ node: hit.obj.node, score: hit.score + 0.02, label: model.nodeName[hit.obj.node] });
      for (const hit of colHits) out.push({ col: hit.obj.col, node: model.colNode[hit.obj.col], score: hit.score, label: hit.target });
      const exact = query.toLowerCase();
      for (const item of out) if (item.label.toLowerCase() === exact) item.score += 1;
      out.sort((a, b) => b.score - a.score || a.label.length - b.label.length);
      return out.slice(0, limit);
    },
  };
}
