// Column walks over the embedded graph, with the semantics of dbt_lineage.queries.impact:
// breadth-first, one shortest path per column, kinds composed along the path (the strongest
// direct kind wins; an indirect hop makes the path indirect), then raised to the strongest
// kind over every path. Direct and column-scoped (window) edges are always followed; row-set
// edges (join, filter, group_by, sort, distinct) only with `rows`.

const RANK = { identity: 1, transform: 2, aggregate: 3 };

export function compose(base, hop) {
  if (!(base in RANK)) return base;
  if (!(hop in RANK)) return hop;
  return RANK[base] >= RANK[hop] ? base : hop;
}
const stronger = (kind, than) => (RANK[kind] || 0) > (RANK[than] || 0);

// Work between two pauses of walkSteps: a few milliseconds.
const SLICE = 2000;

// Walk from a column, or from every column of a node (`{node}`), downstream or upstream.
export function walk(model, target, options) {
  const steps = walkSteps(model, target, options);
  let next = steps.next();
  while (!next.done) next = steps.next();
  return next.value;
}

// The same walk as a generator that pauses after every SLICE steps and returns the result:
// a date column's impact with row-set edges reaches tens of thousands of columns, and
// `useSliced` (ui.jsx) spreads it over tasks of a few milliseconds each.
export function* walkSteps(model, target, { reverse = false, rows = false, depth = null } = {}) {
  let work = 0;
  const starts = target.col !== undefined ? [target.col] : columnsRange(model, target.node);
  const distance = new Map();
  const via = new Map();
  const hop = new Map();
  const pathKind = new Map();
  const kind = new Map();
  const relations = new Map();
  const steering = new Map();
  const kinds = model.kinds;
  const startSet = new Set(starts);
  const expanded = new Set();

  const steps = (ref, level) => {
    const found = [];
    const adj = reverse ? model.in : model.out;
    for (let i = adj.start[ref]; i < adj.start[ref + 1]; i++) {
      found.push([adj.items[i], kinds[model.edge.kind[adj.edge[i]]]]);
    }
    if (rows && !reverse) {
      const ro = model.rowsOut;
      for (let i = ro.start[ref]; i < ro.start[ref + 1]; i++) {
        const node = ro.items[i];
        const k = kinds[model.rowEdge.kind[ro.edge[i]]];
        if (level + 1 < (relations.get(node) ?? level + 2)) relations.set(node, level + 1);
        // A relation's columns reached again through a row-set edge change nothing: the
        // first time (breadth first: the nearest) sets their distance, and an indirect hop
        // never makes a kind stronger. Skipping the repeats keeps a heavy column's walk
        // linear in the columns it reaches.
        if (expanded.has(node)) continue;
        expanded.add(node);
        for (let c = model.colStart[node]; c < model.colStart[node + 1]; c++) found.push([c, k]);
      }
    }
    if (rows && reverse) {
      const node = model.colNode[ref];
      if (!steering.has(node)) {
        const list = [];
        const ri = model.rowsIn;
        for (let i = ri.start[node]; i < ri.start[node + 1]; i++) {
          list.push([ri.items[i], kinds[model.rowEdge.kind[ri.edge[i]]]]);
        }
        steering.set(node, list);
      }
      found.push(...steering.get(node));
    }
    return found;
  };

  for (const ref of starts) {
    distance.set(ref, 0);
    pathKind.set(ref, "identity");
    kind.set(ref, "identity");
  }
  const stepsOf = new Map();
  let layer = starts.slice();
  let level = 0;
  while (layer.length && (depth == null || level < depth)) {
    const following = [];
    for (const ref of layer) {
      const list = steps(ref, level);
      work += list.length + 1;
      if (work >= SLICE) {
        work = 0;
        yield;
      }
      stepsOf.set(ref, list);
      const base = pathKind.get(ref);
      for (const [nxt, h] of list) {
        const composed = compose(base, h);
        const seen = distance.get(nxt);
        if (seen === undefined) {
          distance.set(nxt, level + 1);
          following.push(nxt);
        } else if (seen !== level + 1) continue;
        else {
          const kept = pathKind.get(nxt);
          const better =
            stronger(composed, kept) || (composed === kept && h in RANK && !(hop.get(nxt) in RANK));
          if (!better) continue;
        }
        via.set(nxt, ref);
        hop.set(nxt, h);
        pathKind.set(nxt, composed);
        kind.set(nxt, composed);
      }
    }
    layer = following;
    level++;
  }
  // Raise each kind to the strongest over every path among reached columns.
  const pending = Array.from(stepsOf.keys());
  for (let next = 0; next < pending.length; next++) {
    const ref = pending[next];
    if (++work >= SLICE) {
      work = 0;
      yield;
    }
    const base = kind.get(ref);
    for (const [nxt, h] of stepsOf.get(ref) || []) {
      if (startSet.has(nxt)) continue;
      const composed = compose(base, h);
      if (stronger(composed, kind.get(nxt))) {
        kind.set(nxt, composed);
        pending.push(nxt);
      }
    }
  }
  const path = (ref) => {
    const out = [];
    while (hop.has(ref)) {
      out.push(hop.get(ref));
      ref = via.get(ref);
    }
    return out.reverse();
  };
  const columns = [];
  const reached = new Map(relations);
  const ownNode = target.col !== undefined ? model.colNode[target.col] : target.node;
  if (target.col === undefined && !reverse) {
    for (const [node, d] of dependents(model, target.node, depth)) {
      if (d < (reached.get(node) ?? Infinity)) reached.set(node, d);
    }
  }
  for (const [ref, d] of distance) {
    if (startSet.has(ref)) continue;
    if (++work >= SLICE) {
      work = 0;
      yield;
    }
    columns.push({ col: ref, distance: d, kind: kind.get(ref), path: path(ref), via: via.get(ref) });
    const node = model.colNode[ref];
    if (d < (reached.get(node) ?? Infinity)) reached.set(node, d);
  }
  columns.sort((a, b) => a.distance - b.distance || a.col - b.col);
  const relationList = Array.from(reached, ([node, d]) => ({ node, distance: d }))
    .filter((r) => model.nodeType[r.node] !== "exposure")
    .sort((a, b) => a.distance - b.distance || model.nodeId[a.node].localeCompare(model.nodeId[b.node]));
  const exposures = reverse ? [] : exposuresReading(model, new Map([...reached, [ownNode, 0]]));
  return { columns, relations: relationList, exposures, distance, kind, via, hop };
}

function columnsRange(model, node) {
  const out = [];
  for (let c = model.colStart[node]; c < model.colStart[node + 1]; c++) out.push(c);
  return out;
}

// Relations that read `node`, directly or not, by dependency edges.
export function dependents(model, node, depth) {
  const found = new Map();
  let layer = [node];
  let level = 0;
  while (layer.length && (depth == null || level < depth)) {
    const following = [];
    for (const parent of layer) {
      for (let i = model.depOut.start[parent]; i < model.depOut.start[parent + 1]; i++) {
        const child = model.depOut.items[i];
        if (found.has(child) || child === node || model.nodeType[child] === "exposure") continue;
        found.set(child, level + 1);
        following.push(child);
      }
    }
    layer = following;
    level++;
  }
  return found;
}

// Relations `node` reads, directly or not, by dependency edges: node -> distance.
export function ancestors(model, node) {
  const found = new Map();
  let layer = [node];
  let level = 0;
  while (layer.length) {
    const following = [];
    for (const child of layer) {
      for (let i = model.depIn.start[child]; i < model.depIn.start[child + 1]; i++) {
        const parent = model.depIn.items[i];
        if (found.has(parent) || parent === node) continue;
        found.set(parent, level + 1);
        following.push(parent);
      }
    }
    layer = following;
    level++;
  }
  return found;
}

// Exposures that read any of `readers` (relation -> distance), with the nearest distance.
export function exposuresReading(model, readers) {
  const reading = new Map();
  for (const [node, d] of readers) {
    for (let i = model.depOut.start[node]; i < model.depOut.start[node + 1]; i++) {
      const child = model.depOut.items[i];
      if (model.nodeType[child] !== "exposure") continue;
      const list = reading.get(child) || [];
      list.push([d, node]);
      reading.set(child, list);
    }
  }
  const out = [];
  for (const [node, via] of reading) {
    via.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    out.push({ node, distance: via[0][0] + 1, via: via.map((v) => v[1]) });
  }
  return out.sort((a, b) => a.distance - b.distance || model.nodeId[a.node].localeCompare(model.nodeId[b.node]));
}

// Relation-level neighbours by dependency edges (one hop).
export function parents(model, node) {
  const out = [];
  for (let i = model.depIn.start[node]; i < model.depIn.start[node + 1]; i++) out.push(model.depIn.items[i]);
  return out;
}
export function children(model, node) {
  const out = [];
  for (let i = model.depOut.start[node]; i < model.depOut.start[node + 1]; i++) out.push(model.depOut.items[i]);
  return out;
}

// The subgraph the column explorer draws around `focus`: columns upstream and downstream to
// the given depths, the edges between them in walk direction, and, with `rows`, the columns
// that decide the rows of each relation on the path (dashed, to the relation) and the
// relations whose rows a path column decides.
export function neighbourhood(model, focus, { up = null, down = null, rows = false } = {}) {
  const upWalk = walk(model, { col: focus }, { reverse: true, depth: up });
  const downWalk = walk(model, { col: focus }, { depth: down });
  const cols = new Map(); // col -> signed distance (upstream negative)
  cols.set(focus, 0);
  for (const [c, d] of upWalk.distance) if (c !== focus) cols.set(c, -d);
  for (const [c, d] of downWalk.distance) if (c !== focus && !cols.has(c)) cols.set(c, d);
  const edges = [];
  const seen = new Set();
  const kinds = model.kinds;
  const add = (src, dst, kind) => {
    const key = (src * model.C + dst) * 16 + kinds.indexOf(kind);
    if (seen.has(key)) return;
    seen.add(key);
    edges.push({ src, dst, kind });
  };
  for (const [c, d] of upWalk.distance) {
    if (up != null && d >= up) continue;
    for (let i = model.in.start[c]; i < model.in.start[c + 1]; i++) {
      const s = model.in.items[i];
      if (upWalk.distance.has(s)) add(s, c, kinds[model.edge.kind[model.in.edge[i]]]);
    }
  }
  for (const [c, d] of downWalk.distance) {
    if (down != null && d >= down) continue;
    for (let i = model.out.start[c]; i < model.out.start[c + 1]; i++) {
      const t = model.out.items[i];
      if (downWalk.distance.has(t)) add(c, t, kinds[model.edge.kind[model.out.edge[i]]]);
    }
  }
  const rowEdges = []; // {src: col, node: relation, kind}
  const extraNodes = new Set();
  if (rows) {
    const relationsOnPath = new Set();
    for (const [c, d] of cols) if (d <= 0) relationsOnPath.add(model.colNode[c]);
    for (const node of relationsOnPath) {
      for (let i = model.rowsIn.start[node]; i < model.rowsIn.start[node + 1]; i++) {
        const s = model.rowsIn.items[i];
        if (!cols.has(s)) cols.set(s, -(Math.abs(cols.get(focus)) + 1));
        rowEdges.push({ src: s, node, kind: kinds[model.rowEdge.kind[model.rowsIn.edge[i]]] });
      }
    }
    for (const [c, d] of cols) {
      if (d < 0) continue;
      for (let i = model.rowsOut.start[c]; i < model.rowsOut.start[c + 1]; i++) {
        const node = model.rowsOut.items[i];
        extraNodes.add(node);
        rowEdges.push({ src: c, node, kind: kinds[model.rowEdge.kind[model.rowsOut.edge[i]]] });
      }
    }
  }
  return { cols, edges, rowEdges, extraNodes, up: upWalk, down: downWalk };
}
