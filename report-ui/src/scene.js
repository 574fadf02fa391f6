// The column explorer's drawing: one box per relation on the path, the path's columns as rows,
// and the edges between rows, with level of detail so that the heaviest column of a
// 3,000-model project stays a few thousand DOM nodes: past ROW_BUDGET rows or OPEN_BOXES
// boxes with rows, the boxes farthest from the focus fold to their header with a count;
// past BOX_BUDGET boxes, folded ones gather by folder (each expanded on demand); and the
// edges of each kind are one SVG path. Small drawings are placed by dagre; larger ones by
// a layered layout (columns by signed distance, ordered by the barycentre of their
// neighbours), which takes milliseconds where dagre takes seconds.
import dagre from "@dagrejs/dagre";
import { columnsOf } from "./data.js";

export const BOX_W = 220;
export const HEAD_H = 40;
export const ROW_H = 24;
const ROW_BUDGET = 240;
const OPEN_BOXES = 80;
const BOX_BUDGET = 120;
const DAGRE_MAX_BOXES = 40;
const DAGRE_MAX_EDGES = 400;
const GAP_X = 90;
const GAP_Y = 18;

function relationsOf(model, nb) {
  const relations = new Map();
  const ensure = (node) => {
    if (!relations.has(node)) relations.set(node, { node, cols: new Map(), distance: null, rowsOnly: true });
    return relations.get(node);
  };
  for (const [c, d] of nb.cols) {
    const r = ensure(model.colNode[c]);
    let kind = "";
    if (d > 0) kind = nb.down.kind.get(c);
    else if (d < 0) kind = nb.up.kind.get(c) || "";
    r.cols.set(c, kind);
    r.rowsOnly = false;
    if (r.distance === null || Math.abs(d) < Math.abs(r.distance)) r.distance = d;
  }
  for (const n of nb.extraNodes) {
    const r = ensure(n);
    if (r.distance === null) r.distance = 1;
  }
  return relations;
}

// Boxes whose rows are left out to keep the drawing light: farthest first, widest first.
function autoCollapsed(model, relations, focusNode, boxMode) {
  let rows = 0;
  let open = 0;
  for (const r of relations.values()) {
    if (boxMode.has(r.node) || !r.cols.size) continue;
    rows += r.cols.size;
    open++;
  }
  const out = new Set();
  if (rows <= ROW_BUDGET && open <= OPEN_BOXES) return out;
  const order = [...relations.values()]
    .filter((r) => r.node !== focusNode && !boxMode.has(r.node) && r.cols.size > 0)
    .sort((a, b) => Math.abs(b.distance) - Math.abs(a.distance) || b.cols.size - a.cols.size || a.node - b.node);
  for (const r of order) {
    if (rows <= ROW_BUDGET && open <= OPEN_BOXES) break;
    out.add(r.node);
    rows -= r.cols.size;
    open--;
  }
  return out;
}

export function buildScene(model, focus, nb, boxMode, hidden) {
  const relations = relationsOf(model, nb);
  const focusNode = model.colNode[focus];
  // Exposures that read the focus relation or a relation downstream of it end the drawing.
  const exposures = new Map();
  for (const r of relations.values()) {
    if ((r.distance ?? 0) < 0) continue;
    for (let i = model.depOut.start[r.node]; i < model.depOut.start[r.node + 1]; i++) {
      const child = model.depOut.items[i];
      if (model.nodeType[child] !== "exposure") continue;
      if (!exposures.has(child)) exposures.set(child, []);
      exposures.get(child).push(r.node);
    }
  }
  const collapsedByBudget = autoCollapsed(model, relations, focusNode, boxMode);
  const boxes = [];
  for (const r of relations.values()) {
    const auto = collapsedByBudget.has(r.node);
    const mode = boxMode.get(r.node) || (auto ? "collapsed" : "path");
    let rows;
    if (mode === "all") {
      rows = columnsOf(model, r.node).map((c) => ({ col: c, kind: r.cols.get(c) || "", onPath: r.cols.has(c) }));
    } else if (mode === "collapsed") rows = [];
    else rows = [...r.cols].sort((a, b) => a[0] - b[0]).map(([c, kind]) => ({ col: c, kind, onPath: true }));
    const h = HEAD_H + rows.length * ROW_H + (rows.length ? 4 : 0);
    boxes.push({
      node: r.node, mode, auto, rows, h, onPath: r.cols.size, distance: r.distance ?? 0,
      rowsOnly: r.rowsOnly, hasFocus: r.cols.has(focus),
    });
  }
  for (const [node, readers] of exposures) {
    boxes.push({ node, mode: "collapsed", rows: [], h: HEAD_H, onPath: 0, distance: 1, exposure: true, readers });
  }
  const groups = groupFolded(model, boxes, boxMode);
  const boxOf = new Map();
  for (const b of boxes) boxOf.set(b.node, b.node);
  for (const g of groups) {
    for (const node of g.nodes) boxOf.set(node, g.node);
  }
  const shown = boxes.filter((b) => boxOf.get(b.node) === b.node).concat(groups);
  boxes.length = 0;
  boxes.push(...shown);
  const visible = nb.edges.filter((e) => !hidden.has(e.kind));
  const rowEdges = nb.rowEdges.filter((e) => !hidden.has(e.kind));
  const links = new Map(); // relation -> relations it feeds, for the layout
  const link = (from, to) => {
    const a = boxOf.get(from);
    const b = boxOf.get(to);
    if (a === b) return;
    if (!links.has(a)) links.set(a, new Set());
    links.get(a).add(b);
  };
  for (const e of visible) link(model.colNode[e.src], model.colNode[e.dst]);
  for (const e of rowEdges) link(model.colNode[e.src], e.node);
  for (const [node, readers] of exposures) for (const reader of readers) link(reader, node);
  let linkCount = 0;
  for (const set of links.values()) linkCount += set.size;
  if (boxes.length <= DAGRE_MAX_BOXES && linkCount <= DAGRE_MAX_EDGES) dagreLayout(boxes, links);
  else layeredLayout(boxes, links);
  let width = 0;
  let height = 0;
  const byNode = new Map();
  for (const b of boxes) {
    width = Math.max(width, b.x + BOX_W + 20);
    height = Math.max(height, b.y + b.h + 20);
    byNode.set(b.node, b);
  }
  const rowIndex = new Map();
  for (const b of boxes) b.rows.forEach((r, i) => rowIndex.set(r.col, i));
  const anchor = (col, side) => {
    const b = byNode.get(boxOf.get(model.colNode[col]));
    const x = side === "out" ? b.x + BOX_W : b.x;
    const index = rowIndex.get(col);
    const y = b.mode === "collapsed" || index === undefined ? b.y + HEAD_H / 2 : b.y + HEAD_H + index * ROW_H + ROW_H / 2 + 2;
    return [x, y];
  };
  // One path per kind (and one for the focus column's own edges): a few DOM nodes in all.
  const strokes = new Map();
  const add = (kind, hot, [x1, y1], [x2, y2]) => {
    const key = kind + (hot ? " hot" : "");
    const dx = Math.max(40, Math.abs(x2 - x1) / 2);
    const d = `M${x1},${y1}C${x1 + dx},${y1} ${x2 - dx},${y2} ${x2},${y2}`;
    if (!strokes.has(key)) strokes.set(key, { kind, hot, parts: [] });
    strokes.get(key).parts.push(d);
  };
  const seen = new Set();
  let edgeCount = 0;
  for (const e of visible) {
    const a = anchor(e.src, "out");
    const b = anchor(e.dst, "in");
    const key = `${a}|${b}|${e.kind}`;
    edgeCount++;
    if (seen.has(key)) continue; // collapsed boxes: many column edges, one curve
    seen.add(key);
    add(e.kind, e.src === focus || e.dst === focus, a, b);
  }
  for (const e of rowEdges) {
    const b = byNode.get(boxOf.get(e.node));
    const a = anchor(e.src, "out");
    const key = `${a}|${b.node}|${e.kind}`;
    edgeCount++;
    if (seen.has(key)) continue;
    seen.add(key);
    add(e.kind, false, a, [b.x, b.y + HEAD_H / 2]);
  }
  for (const [node, readers] of exposures) {
    const b = byNode.get(boxOf.get(node));
    for (const reader of readers) {
      const a = byNode.get(boxOf.get(reader));
      edgeCount++;
      add("depends", false, [a.x + BOX_W, a.y + HEAD_H / 2], [b.x, b.y + HEAD_H / 2]);
    }
  }
  const paths = [...strokes.values()].map((g) => ({ kind: g.kind, hot: g.hot, d: g.parts.join("") }));
  const focusPoint = byNode.has(focusNode) ? anchor(focus, "in") : null;
  let columnCount = 0;
  for (const b of boxes) columnCount += b.rows.length;
  const grouped = groups.reduce((n, g) => n + g.nodes.length, 0);
  return { boxes, paths, edgeCount, width, height, focusPoint, columnCount, collapsed: collapsedByBudget.size, grouped };
}

// Past BOX_BUDGET boxes, folded boxes (no rows, not opened by the user) beyond the nearest
// ones gather into one box per distance and folder, with a count: 1,300 readers of a date
// column are a dozen boxes, each opened on demand.
function groupFolded(model, boxes, boxMode) {
  // Boxes the user opened come on top of the budget: opening a group hides nothing else.
  const budget = BOX_BUDGET + boxMode.size;
  if (boxes.length <= budget) return [];
  // A relation reached only by row-set edges has no row to show: it folds like a folded box
  // (the row-set toggle on a date column adds two hundred of them).
  const foldable = (b) => (b.mode === "collapsed" || b.rows.length === 0) && !b.exposure && !b.hasFocus && !boxMode.has(b.node);
  const kept = boxes.filter((b) => !foldable(b)).length;
  const candidates = boxes.filter(foldable).sort((a, b) => Math.abs(a.distance) - Math.abs(b.distance) || a.node - b.node);
  const byKey = new Map();
  candidates.slice(Math.max(0, budget - kept)).forEach((b) => {
    const folder = model.nodeFolder[b.node];
    const key = `${b.distance}\u0000${folder}`;
    if (!byKey.has(key)) byKey.set(key, { distance: b.distance, folder, nodes: [] });
    byKey.get(key).nodes.push(b.node);
  });
  return [...byKey.values()].map((g, i) => ({
    node: -(i + 1), group: true, nodes: g.nodes, folder: g.folder, distance: g.distance,
    mode: "collapsed", rows: [], h: HEAD_H, onPath: 0,
  }));
}

function dagreLayout(boxes, links) {
  const g = new dagre.graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: "LR", nodesep: 22, ranksep: 64, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const b of boxes) g.setNode(String(b.node), { width: BOX_W, height: b.h });
  for (const [a, set] of links) for (const b of set) g.setEdge(String(a), String(b));
  dagre.layout(g);
  for (const b of boxes) {
    const n = g.node(String(b.node));
    b.x = n.x - BOX_W / 2;
    b.y = n.y - b.h / 2;
  }
}

// Columns by signed distance from the focus; inside a column, boxes ordered by the mean
// position of their neighbours in the columns already placed (two sweeps), then stacked.
function layeredLayout(boxes, links) {
  const byDistance = new Map();
  for (const b of boxes) {
    if (!byDistance.has(b.distance)) byDistance.set(b.distance, []);
    byDistance.get(b.distance).push(b);
  }
  const keys = [...byDistance.keys()].sort((a, b) => a - b);
  const neighbours = new Map();
  const join = (a, b) => {
    if (!neighbours.has(a)) neighbours.set(a, []);
    neighbours.get(a).push(b);
  };
  for (const [a, set] of links) for (const b of set) (join(a, b), join(b, a));
  const position = new Map();
  const place = (list) => {
    let y = 20;
    list.forEach((b) => {
      b.y = y;
      position.set(b.node, y + b.h / 2);
      y += b.h + GAP_Y;
    });
    return y;
  };
  const order = (list) => {
    const score = new Map();
    for (const b of list) {
      let sum = 0;
      let count = 0;
      for (const n of neighbours.get(b.node) || []) {
        const p = position.get(n);
        if (p !== undefined) (sum += p, count++);
      }
      score.set(b.node, count ? sum / count : Infinity);
    }
    list.sort((a, b) => score.get(a.node) - score.get(b.node) || a.node - b.node);
  };
  const zero = keys.indexOf(0);
  const sweep = [...keys.slice(zero < 0 ? 0 : zero), ...keys.slice(0, zero < 0 ? 0 : zero).reverse()];
  for (let pass = 0; pass < 2; pass++) {
    for (const d of sweep) {
      const list = byDistance.get(d);
      order(list);
      place(list);
    }
  }
  const heights = keys.map((d) => {
    const list = byDistance.get(d);
    const last = list[list.length - 1];
    return last.y + last.h;
  });
  const tallest = Math.max(...heights);
  keys.forEach((d, i) => {
    const shift = (tallest - heights[i]) / 2; // centre each column on the tallest
    for (const b of byDistance.get(d)) {
      b.x = 20 + i * (BOX_W + GAP_X);
      b.y += shift;
    }
  });
}
