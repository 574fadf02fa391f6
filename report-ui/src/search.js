// Fuzzy search over models, sources, seeds, snapshots, exposures and columns (fuzzysort).
// Columns are searched by name through the distinct column names (a project with 250,000
// columns has a few thousand names), then expanded to the relations that hold them; a query
// with a dot ("stg_payments.amount") matches the part before the last dot against relation
// names and the part after it against those relations' columns.
import fuzzysort from "fuzzysort";

const NODE_LIMIT = 25;
const COLUMN_LIMIT = 40;

export function searchIndex(model) {
  let nodes = null;
  let names = null;
  let byName = null;
  const prepare = () => {
    if (nodes) return;
    nodes = model.nodeName.map((name, node) => ({ node, key: fuzzysort.prepare(name), id: fuzzysort.prepare(model.nodeId[node]) }));
    byName = new Map();
    for (let c = 0; c < model.C; c++) {
      const name = model.colName[c];
      const list = byName.get(name);
      if (list) list.push(c);
      else byName.set(name, [c]);
    }
    names = [...byName.keys()].map((name) => ({ name, key: fuzzysort.prepare(name) }));
  };
  const nodeHits = (query, limit) => fuzzysort.go(query, nodes, { keys: ["key", "id"], limit, threshold: 0.3 });
  return {
    prepare,
    search(query, limit = 40) {
      query = query.trim();
      if (!query) return [];
      prepare();
      const out = [];
      for (const hit of nodeHits(query, NODE_LIMIT)) {
        out.push({ node: hit.obj.node, score: hit.score + 0.02, label: model.nodeName[hit.obj.node] });
      }
      const dot = query.lastIndexOf(".");
      if (dot > 0 && dot < query.length - 1) {
        // relation.column: the best relations, then their columns.
        const columnPart = query.slice(dot + 1);
        for (const hit of nodeHits(query.slice(0, dot), 30)) {
          const node = hit.obj.node;
          const targets = [];
          for (let c = model.colStart[node]; c < model.colStart[node + 1]; c++) targets.push({ col: c, name: model.colName[c] });
          for (const colHit of fuzzysort.go(columnPart, targets, { key: "name", limit: 10, threshold: 0.3 })) {
            const col = colHit.obj.col;
            out.push({ col, node, score: (hit.score + colHit.score) / 2 + 0.01, label: `${model.nodeName[node]}.${model.colName[col]}` });
          }
        }
      } else if (query.length >= 2) {
        let added = 0;
        for (const hit of fuzzysort.go(query, names, { key: "key", limit: 20, threshold: 0.3 })) {
          for (const col of byName.get(hit.obj.name)) {
            if (added++ >= COLUMN_LIMIT) break;
            const node = model.colNode[col];
            out.push({ col, node, score: hit.score - 0.01, label: `${model.nodeName[node]}.${model.colName[col]}` });
          }
        }
      }
      const exact = query.toLowerCase();
      for (const item of out) if (item.label.toLowerCase() === exact) item.score += 1;
      out.sort((a, b) => b.score - a.score || a.label.length - b.label.length);
      return out.slice(0, limit);
    },
  };
}
