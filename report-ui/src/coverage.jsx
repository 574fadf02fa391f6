// The coverage page: columns resolved by layer and by folder, unresolved columns grouped by
// reason with each node's file, and every diagnostic.
import { useMemo, useState } from "preact/hooks";
import { href } from "./route.js";
import { Empty, NodeLink, plural } from "./ui.jsx";

const COUNTED = new Set(["model", "snapshot", "seed"]);

function tally(model) {
  const byFolder = new Map();
  const byLayer = new Map();
  const unresolved = new Map();
  let total = 0;
  let resolved = 0;
  const add = (map, key, ok, node) => {
    if (!map.has(key)) map.set(key, { key, total: 0, resolved: 0, nodes: new Set() });
    const e = map.get(key);
    e.total++;
    if (ok) e.resolved++;
    e.nodes.add(node);
  };
  for (let u = 0; u < model.N; u++) {
    if (!COUNTED.has(model.nodeType[u])) continue;
    for (let c = model.colStart[u]; c < model.colStart[u + 1]; c++) {
      const ok = !(model.colFlags[c] & 1);
      total++;
      if (ok) resolved++;
      add(byFolder, model.nodeFolder[u], ok, u);
      add(byLayer, model.nodeLayer[u], ok, u);
      if (!ok) {
        const reason = model.S[model.colRaw.reason[c]];
        const code = reason.split(":")[0] || "unknown";
        if (!unresolved.has(code)) unresolved.set(code, []);
        unresolved.get(code).push({ col: c, node: u, detail: reason.slice(code.length + 1).trim() });
      }
    }
  }
  const sort = (m) => [...m.values()].sort((a, b) => a.resolved / a.total - b.resolved / b.total || (a.key < b.key ? -1 : 1));
  return { total, resolved, folders: sort(byFolder), layers: sort(byLayer), unresolved: [...unresolved].sort((a, b) => b[1].length - a[1].length) };
}

export function CoveragePage({ model }) {
  const t = useMemo(() => tally(model), [model]);
  const pct = t.total ? (100 * t.resolved) / t.total : 100;
  return (
    <div class="page coverage" data-testid="coverage">
      <h1>Coverage</h1>
      <p class="muted">Columns of models, snapshots and seeds whose lineage is resolved. Sources are where lineage starts and are not counted.</p>
      <div class="stats">
        <Stat label="columns resolved" value={`${pct.toFixed(1)}%`} sub={`${t.resolved.toLocaleString()} of ${t.total.toLocaleString()}`} />
        <Stat label="unresolved columns" value={(t.total - t.resolved).toLocaleString()} sub={plural(t.unresolved.length, "reason")} />
        <Stat label="diagnostics" value={model.diagnostics.length.toLocaleString()} sub="on nodes" />
        <Stat label="catalog" value={model.meta.has_catalog ? "yes" : "no"} sub={model.meta.has_catalog ? "exact warehouse columns" : "run dbt docs generate"} />
      </div>
      <div class="two">
        <section class="card">
          <h3>By layer</h3>
          <Table rows={t.layers} />
        </section>
        <section class="card">
          <h3>By folder</h3>
          <Table rows={t.folders} />
        </section>
      </div>
      <section class="card">
        <h3>Unresolved columns by reason</h3>
        {t.unresolved.length ? t.unresolved.map(([code, list]) => <Reason key={code} model={model} code={code} list={list} />) : <Empty>Every column is resolved.</Empty>}
      </section>
      <section class="card">
        <h3>Diagnostics <span class="count">{model.diagnostics.length}</span></h3>
        {model.diagnostics.length ? (
          <table class="grid">
            <thead><tr><th>Node</th><th>Reason</th><th>Message</th><th>File</th></tr></thead>
            <tbody>
              {model.diagnostics.slice(0, 2000).map((d, i) => (
                <tr key={i}>
                  <td>{d.node >= 0 ? <NodeLink model={model} node={d.node} /> : "—"}</td>
                  <td><span class="badge bad">{d.reason}</span></td>
                  <td class="small">{d.message}</td>
                  <td class="mono small">{d.path}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Empty>No diagnostics.</Empty>
        )}
      </section>
    </div>
  );
}

function Stat({ label, value, sub }) {
  return (
    <div class="stat">
      <div class="stat-value">{value}</div>
      <div class="stat-label">{label}</div>
      <div class="small muted">{sub}</div>
    </div>
  );
}

function Table({ rows }) {
  return (
    <table class="grid compact">
      <thead><tr><th>Name</th><th class="num">Relations</th><th class="num">Columns</th><th>Resolved</th></tr></thead>
      <tbody>
        {rows.slice(0, 300).map((r) => {
          const pct = r.total ? (100 * r.resolved) / r.total : 100;
          return (
            <tr key={r.key}>
              <td class="mono small">{r.key}</td>
              <td class="num">{r.nodes.size.toLocaleString()}</td>
              <td class="num">{r.total.toLocaleString()}</td>
              <td>
                <div class="bar"><span style={{ width: pct + "%" }} class={pct < 90 ? "low" : ""} /></div>
                <span class="small">{pct.toFixed(1)}%</span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Reason({ model, code, list }) {
  const [open, setOpen] = useState(list.length <= 20);
  return (
    <div class="reason">
      <button class="reason-head" onClick={() => setOpen(!open)}>
        <span class={`caret ${open ? "open" : ""}`}>▸</span>
        <span class="badge bad">{code}</span> {plural(list.length, "column")}
      </button>
      {open && (
        <table class="grid compact">
          <tbody>
            {list.slice(0, 1000).map((u) => (
              <tr key={u.col}>
                <td><NodeLink model={model} node={u.node} /></td>
                <td><a class="col-link" href={href("column", model.nodeId[u.node], model.colName[u.col])}>{model.colName[u.col]}</a></td>
                <td class="mono small">{model.nodePath[u.node]}</td>
                <td class="small muted">{u.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
