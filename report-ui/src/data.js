// Reads the embedded document (inflating it when compressed) and builds the in-memory model:
// typed arrays for columns and edges, adjacency in compressed sparse rows, lookups by id.

export async function readEmbedded() {
  const element = document.getElementById("dbt-lineage-data");
  const outer = JSON.parse(element.textContent);
  if (outer.encoding !== "gzip+base64") return outer;
  const text = atob(outer.data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

// Compressed sparse rows: for item i, its neighbours are items[start[i] .. start[i+1]).
function csr(count, from, to, payload) {
  const start = new Int32Array(count + 1);
  for (let i = 0; i < from.length; i++) start[from[i] + 1]++;
  for (let i = 0; i < count; i++) start[i + 1] += start[i];
  const fill = start.slice(0, count);
  const items = new Int32Array(from.length);
  const edge = new Int32Array(from.length);
  for (let i = 0; i < from.length; i++) {
    const at = fill[from[i]]++;
    items[at] = to[i];
    edge[at] = payload ? payload[i] : i;
  }
  return { start, items, edge };
}

export const DIRECT = new Set(["identity", "transform", "aggregate"]);
export const PII_WORDS = /^(pii|personal|sensitive|confidential|gdpr|phi)$/i;

export function buildModel(doc) {
  const S = doc.strings;
  const n = doc.nodes;
  const N = n.id.length;
  const types = doc.meta.node_types;
  const kinds = doc.meta.edge_kinds;
  const model = {
    meta: doc.meta,
    S,
    kinds,
    N,
    nodeId: n.id.map((i) => S[i]),
    nodeName: n.name.map((i) => S[i]),
    nodeType: n.type.map((t) => types[t]),
    nodePath: n.path.map((i) => S[i]),
    nodePackage: n.pkg.map((i) => S[i]),
    raw: n,
    byId: new Map(),
  };
  model.nodeId.forEach((id, i) => model.byId.set(id, i));
  model.nodeFolder = model.nodePath.map((p, i) => folderOf(p, model.nodeType[i]));
  model.nodeLayer = model.nodeFolder.map((f, i) => layerOf(f, model.nodeType[i]));

  const c = doc.columns;
  const C = c.node.length;
  model.C = C;
  model.colNode = Int32Array.from(c.node);
  model.colName = c.name.map((i) => S[i]);
  model.colFlags = Uint8Array.from(c.flags);
  model.colRaw = c;
  const colStart = new Int32Array(N + 1).fill(-1);
  for (let i = C - 1; i >= 0; i--) colStart[c.node[i]] = i;
  colStart[N] = C;
  for (let i = N - 1; i >= 0; i--) if (colStart[i] < 0) colStart[i] = colStart[i + 1];
  model.colStart = colStart;
  model.sparse = {
    tags: new Map(c.tags.map(([col, v]) => [col, v.map((i) => S[i])])),
    meta: new Map(c.meta.map(([col, v]) => [col, S[v]])),
    tests: new Map(c.tests.map(([col, v]) => [col, v.map((i) => S[i])])),
  };

  const e = doc.edges;
  model.edge = { src: Int32Array.from(e.src), dst: Int32Array.from(e.dst), kind: e.kind, expr: e.expr };
  model.out = csr(C, e.src, e.dst);
  model.in = csr(C, e.dst, e.src);
  const r = doc.rows;
  model.rowEdge = r;
  model.rowsOut = csr(C, r.src, r.dst); // column -> relations whose rows it decides
  model.rowsIn = csr(N, r.dst, r.src); // relation -> columns that decide its rows
  const d = doc.depends;
  model.depOut = csr(N, d.src, d.dst);
  model.depIn = csr(N, d.dst, d.src);

  model.exposure = new Map();
  const x = doc.exposures;
  x.node.forEach((node, i) =>
    model.exposure.set(node, {
      type: S[x.type[i]], label: S[x.label[i]], url: S[x.url[i]], maturity: S[x.maturity[i]],
      owner: S[x.owner[i]], email: S[x.email[i]],
    }),
  );
  model.diagnostics = doc.diagnostics.map(([node, reason, message, path, cols]) => ({
    node, reason: S[reason], message: S[message], path: S[path], columns: cols.map((i) => S[i]),
  }));
  model.runs = null;
  if (doc.runs) {
    const runs = new Map();
    const R = doc.runs;
    R.node.forEach((node, i) =>
      runs.set(node, {
        status: S[R.status[i]], invocation: S[R.inv[i]], at: S[R.at[i]], rows: R.rows[i],
        seconds: R.secs[i], message: S[R.msg[i]], command: S[R.cmd[i]],
      }),
    );
    model.runs = runs;
    model.runsSource = R.source;
  }
  model.diff = doc.diff ? diffIndex(doc.diff, model) : null;
  return model;
}

export function folderOf(path, type) {
  if (type === "exposure") return path ? path.replace(/\/[^/]*$/, "") : "exposures";
  if (!path) return type + "s";
  const at = path.lastIndexOf("/");
  return at < 0 ? "." : path.slice(0, at);
}

// The layer of a folder: the first folder under the project's models/, seeds/... directory.
export function layerOf(folder, type) {
  const parts = folder.split("/").filter(Boolean);
  if (parts.length >= 2) return parts[1];
  return parts[0] || type;
}

export const str = (model, i) => model.S[i];

export function columnsOf(model, node) {
  const out = [];
  for (let i = model.colStart[node]; i < model.colStart[node + 1]; i++) out.push(i);
  return out;
}

export function columnIndex(model, node, name) {
  for (let i = model.colStart[node]; i < model.colStart[node + 1]; i++) {
    if (model.colName[i] === name) return i;
  }
  const folded = name.toLowerCase();
  for (let i = model.colStart[node]; i < model.colStart[node + 1]; i++) {
    if (model.colName[i].toLowerCase() === folded) return i;
  }
  return -1;
}

export function columnInfo(model, col) {
  const c = model.colRaw;
  const metaText = model.sparse.meta.get(col);
  const meta = metaText ? JSON.parse(metaText) : {};
  const tags = model.sparse.tags.get(col) || [];
  return {
    name: model.colName[col],
    node: model.colNode[col],
    type: model.S[c.type[col]],
    description: model.S[c.desc[col]],
    reason: model.S[c.reason[col]],
    resolved: !(model.colFlags[col] & 1),
    inferred: !!(model.colFlags[col] & 2),
    tags,
    meta,
    tests: model.sparse.tests.get(col) || [],
    classification: classification(meta, tags),
  };
}

export function nodeInfo(model, node) {
  const n = model.raw;
  const S = model.S;
  const metaText = S[n.meta[node]];
  const meta = metaText ? JSON.parse(metaText) : {};
  const tags = n.tags[node].map((i) => S[i]);
  return {
    id: model.nodeId[node],
    name: model.nodeName[node],
    type: model.nodeType[node],
    path: model.nodePath[node],
    folder: model.nodeFolder[node],
    materialized: S[n.mat[node]],
    relation: S[n.rel[node]],
    package: S[n.pkg[node]],
    description: S[n.desc[node]],
    columnsFrom: S[n.cfrom[node]],
    sql: S[n.sql[node]],
    tags,
    meta,
    tests: n.tests[node].map((i) => S[i]),
    owner: ownerOf(meta),
    exposure: model.exposure.get(node) || null,
  };
}

export function ownerOf(meta) {
  const owner = meta && (meta.owner || meta.team || meta.maintainer);
  if (!owner) return "";
  if (typeof owner === "string") return owner;
  return owner.name || owner.email || JSON.stringify(owner);
}

// A column's classification: meta classification/pii, or a PII-like tag.
export function classification(meta, tags) {
  const value = meta.classification ?? meta.pii ?? meta.sensitivity ?? meta.data_classification;
  if (value === true) return "pii";
  if (typeof value === "string" && value) return value;
  const tag = tags.find((t) => PII_WORDS.test(t));
  return tag || "";
}

function diffIndex(diff, model) {
  const changed = new Map();
  const changedColumns = new Map(); // node id -> Map(column -> change)
  for (const change of diff.changes || []) {
    changed.set(change.node, change);
    changedColumns.set(change.node, new Map(Object.entries(change.columns || {})));
  }
  const impacted = new Map();
  for (const item of (diff.impacted && diff.impacted.columns) || []) {
    const node = model.byId.get(item.node);
    if (node === undefined) continue;
    const col = columnIndex(model, node, item.column);
    if (col >= 0) impacted.set(col, item);
  }
  const impactedModels = new Set(((diff.impacted && diff.impacted.models) || []).map((m) => (typeof m === "string" ? m : m.node)));
  return { doc: diff, changed, changedColumns, impacted, impactedModels };
}

export function columnChange(model, col) {
  if (!model.diff) return "";
  const byName = model.diff.changedColumns.get(model.nodeId[model.colNode[col]]);
  return (byName && byName.get(model.colName[col])) || "";
}
