// Fuzzy search over models, sources, seeds, snapshots, exposures and columns (fuzzysort).
// Columns are searched by name through the distinct column names (a project with 250,000
// columns has a few thousand names), then expanded to the relations that hold them; a query
// with a dot ("stg_payments.amount") matches the part before the last dot against relation
// names and the part after it against those relations' columns. A bare column name lists
// every column of exactly that name first (root project first, then by relation name), then
// near names; the box pages through them.
import fuzzysort from "fuzzysort";
import { naturalCompare } from "./natural.js";

const NODE_LIMIT = 25;
const FUZZY_NAMES = 20;
const FUZZY_COLUMNS = 200;

export function searchIndex(model) {
  let nodes = null;
  let names = null;
  let byName = null;
  let byFolded = null;
  const root = model.meta.project || "";
  const prepare = () => {
    if (nodes) return;
    nodes = model.nodeName.map((name, node) => ({ node, key: fuzzysort.prepare(name), id: fuzzysort.prepare(model.nodeId[node]) }));
    byName = new Map();
    byFolded = new Map();
    for (let c = 0; c < model.C; c++) {
      const name = model.colName[c];
      const list = byName.get(name);
      if (list) list.push(c);
      else byName.set(name, [c]);
      const folded = name.toLowerCase();
      const same = byFolded.get(folded);
      if (same) same.push(c);
      else byFolded.set(folded, [c]);
    }
    names = [...byName.keys()].map((name) => ({ name, key: fuzzysort.prepare(name) }));
  };
  const nodeHits = (query, limit) => fuzzysort.go(query, nodes, { keys: ["key", "id"], limit, threshold: 0.3 });
  const inRoot = (node) => (model.nodePackage[node] === root || !model.nodePackage[node] ? 0 : 1);
  const byRelation = (a, b) =>
    inRoot(model.colNode[a]) - inRoot(model.colNode[b]) || naturalCompare(model.nodeName[model.colNode[a]], model.nodeName[model.colNode[b]]);
  const columnItem = (col, score) => {
    const node = model.colNode[col];
    return { col, node, score, label: `${model.nodeName[node]}.${model.colName[col]}` };
  };
  return {
    prepare,
    // Every hit, best first: the box shows them a page at a time.
    search(query) {
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
            out.push(columnItem(colHit.obj.col, (hit.score + colHit.score) / 2 + 0.01));
          }
        }
      } else if (query.length >= 2) {
        const folded = query.toLowerCase();
        const exact = (byFolded.get(folded) || []).slice().sort(byRelation);
        // Exact name matches rank above everything but an exact relation name.
        exact.forEach((col, i) => out.push(columnItem(col, 1.5 - i * 1e-7)));
        let added = 0;
        for (const hit of fuzzysort.go(query, names, { key: "key", limit: FUZZY_NAMES, threshold: 0.3 })) {
          if (hit.obj.name.toLowerCase() === folded) continue;
          for (const col of byName.get(hit.obj.name)) {
            if (added++ >= FUZZY_COLUMNS) break;
            out.push(columnItem(col, hit.score - 0.01));
          }
        }
      }
      const exact = query.toLowerCase();
      for (const item of out) if (item.col === undefined && item.label.toLowerCase() === exact) item.score += 1;
      for (const item of out) if (item.col !== undefined && item.label.toLowerCase() === exact) item.score += 1;
      out.sort((a, b) => b.score - a.score || a.label.length - b.label.length);
      return out;
    },
  };
}
