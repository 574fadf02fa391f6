// Diff mode: the pre-merge impact of a pull request (the `dbt-lineage diff` JSON document):
// the verdict, changed nodes and columns, broken references, what is impacted downstream,
// and the base and head SQL of a changed node side by side.
import { Fragment } from "preact";
import { href } from "./route.js";
import { ChangeBadge, Empty, NodeLink, plural } from "./ui.jsx";
import { columnIndex } from "./data.js";

const VERDICT_TEXT = {
  block: "Blocks: a reference breaks",
  review: "Review: existing data changes downstream",
  info: "Info: additions, metadata or no-ops only",
  unknown: "Unknown: some changes could not be classified",
};

export function DiffPage({ model, nodeId }) {
  const diff = model.diff.doc;
  if (nodeId) return <DiffNode model={model} nodeId={nodeId} />;
  const impacted = diff.impacted || {};
  const columns = impacted.columns || [];
  const byDistance = new Map();
  for (const c of columns) {
    if (!byDistance.has(c.distance)) byDistance.set(c.distance, []);
    byDistance.get(c.distance).push(c);
  }
  return (
    <div class="page diff" data-testid="diff">
      <div class={`verdict v-${diff.verdict}`}>
        <span class="verdict-word">{diff.verdict}</span>
        <span>{VERDICT_TEXT[diff.verdict] || ""}</span>
      </div>
      <section class="card">
        <h3>Changes <span class="count">{(diff.changes || []).length}</span></h3>
        {(diff.changes || []).length ? (
          <table class="grid">
            <thead><tr><th>Node</th><th>Change</th><th>Class</th><th>Columns</th><th>Reasons</th></tr></thead>
            <tbody>
              {diff.changes.map((c) => (
                <tr key={c.node} class="changed-row">
                  <td><NodeRef model={model} id={c.node} link={href("diff", c.node)} /></td>
                  <td><span class={`badge change-${c.change}`}>{c.change}</span></td>
                  <td><span class={`badge class class-${c.class}`}>{c.class}</span></td>
                  <td>
                    {Object.entries(c.columns || {}).map(([name, what]) => (
                      <span key={name} class="col-change">
                        <ColumnRef model={model} node={c.node} name={name} /> <ChangeBadge value={what} />
                      </span>
                    ))}
                  </td>
                  <td class="small">{(c.reasons || []).join("; ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <Empty>No change.</Empty>
        )}
      </section>
      {(diff.broken_references || []).length > 0 && (
        <section class="card">
          <h3>Broken references <span class="count">{diff.broken_references.length}</span></h3>
          <table class="grid">
            <thead><tr><th>Node</th><th>Column</th><th>Reference</th><th>Path</th><th>Why</th></tr></thead>
            <tbody>
              {diff.broken_references.map((b, i) => (
                <tr key={i}>
                  <td><NodeRef model={model} id={b.node} /></td>
                  <td class="mono">{b.column}</td>
                  <td class="mono small">{refText(b.reference)}</td>
                  <td class="mono small">{Array.isArray(b.path) ? b.path.join(" → ") : b.path}</td>
                  <td class="small">{b.message || b.kind || ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {(diff.unknown || []).length > 0 && (
        <section class="card">
          <h3>Unknown <span class="count">{diff.unknown.length}</span></h3>
          <ul>
            {diff.unknown.map((u, i) => (
              <li key={i}><NodeRef model={model} id={u.node} /> <span class="small muted">{u.reason}</span></li>
            ))}
          </ul>
        </section>
      )}
      {(diff.lineage_breaks || []).length > 0 && (
        <section class="card">
          <h3>Lineage breaks <span class="count">{diff.lineage_breaks.length}</span></h3>
          <ul>
            {diff.lineage_breaks.map((b, i) => (
              <li key={i}>
                <ColumnRef model={model} node={b.node} name={b.column} full /> <span class="badge">{b.kind}</span>{" "}
                <span class="small muted">
                  {b.reason} {(b.lost || []).length > 0 && `(lost: ${b.lost.map(refText).join(", ")})`}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {(diff.notes || []).length > 0 && (
        <section class="card">
          <h3>Notes</h3>
          <ul class="small">{diff.notes.map((n, i) => <li key={i}>{String(n)}</li>)}</ul>
        </section>
      )}
      <div class="two">
        <section class="card">
          <h3>Impacted exposures <span class="count">{(impacted.exposures || []).length}</span></h3>
          {(impacted.exposures || []).map((e) => (
            <div key={e.node} class="row gap">
              <NodeRef model={model} id={e.node} /> <span class={`badge exp-${e.type}`}>{e.type}</span> <span class="small muted">{ownerText(e.owner)}</span>
            </div>
          ))}
        </section>
        <section class="card">
          <h3>Impacted models <span class="count">{(impacted.models || []).length}</span></h3>
          <div class="chips">
            {(impacted.models || []).map((m) => {
              const id = typeof m === "string" ? m : m.node;
              return <NodeRef key={id} model={model} id={id} />;
            })}
          </div>
        </section>
      </div>
      <section class="card">
        <h3>Impacted columns <span class="count">{columns.length}</span></h3>
        {[...byDistance].sort((a, b) => a[0] - b[0]).map(([d, list]) => (
          <div key={d} class="impact-group">
            <h4>{plural(d, "hop")}</h4>
            <ul class="impact-list">
              {list.map((c, i) => (
                <li key={i}>
                  <ColumnRef model={model} node={c.node} name={c.column} full />
                  {c.via && <span class="small muted"> via {refText(c.via)}</span>}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </section>
    </div>
  );
}

function NodeRef({ model, id, link }) {
  const node = model.byId.get(id);
  if (node === undefined) return <span class="mono removed" title="not in the head graph">{id}</span>;
  if (link) return <a class="node-link" href={link}>{model.nodeName[node]}</a>;
  return <NodeLink model={model} node={node} />;
}

function ColumnRef({ model, node, name, full }) {
  const n = model.byId.get(node);
  const col = n === undefined ? -1 : columnIndex(model, n, name);
  const label = full ? `${n === undefined ? node : model.nodeName[n]}.${name}` : name;
  if (col < 0) return <span class="mono removed">{label}</span>;
  return <a class="col-link" href={href("column", node, model.colName[col])}>{label}</a>;
}

function DiffNode({ model, nodeId }) {
  const diff = model.diff.doc;
  const change = (diff.changes || []).find((c) => c.node === nodeId);
  const sql = (diff.sql || {})[nodeId] || { base: "", head: "" };
  const rows = lineDiff(sql.base || "", sql.head || "");
  return (
    <div class="page diff-node" data-testid="diff-node">
      <a href={href("diff")} class="small">← all changes</a>
      <h1>{nodeId}</h1>
      {change && (
        <div class="row gap">
          <span class={`badge change-${change.change}`}>{change.change}</span>
          <span class={`badge class class-${change.class}`}>{change.class}</span>
          {Object.entries(change.columns || {}).map(([name, what]) => (
            <span key={name} class="col-change"><span class="mono">{name}</span> <ChangeBadge value={what} /></span>
          ))}
          {model.byId.has(nodeId) && <a class="btn small" href={href("node", nodeId)}>Node page</a>}
        </div>
      )}
      {change && (change.reasons || []).length > 0 && <p class="small">{change.reasons.join("; ")}</p>}
      <div class="side-by-side" data-testid="side-by-side" tabIndex={0} role="region" aria-label="Base and head SQL">
        <div class="pane-head">base</div>
        <div class="pane-head">head</div>
        {rows.map((r, i) => (
          <Fragment key={i}>
            <pre class={`line ${r.kind === "del" || r.kind === "mod" ? "del" : ""} ${r.base === null ? "blank" : ""}`}>{r.base ?? ""}</pre>
            <pre class={`line ${r.kind === "add" || r.kind === "mod" ? "add" : ""} ${r.head === null ? "blank" : ""}`}>{r.head ?? ""}</pre>
          </Fragment>
        ))}
      </div>
    </div>
  );
}

// A line diff (longest common subsequence) laid out as aligned base/head rows.
export function lineDiff(base, head) {
  const a = base ? base.split("\n") : [];
  const b = head ? head.split("\n") : [];
  if (a.length * b.length > 4_000_000) {
    const n = Math.max(a.length, b.length);
    return Array.from({ length: n }, (_, i) => ({ base: a[i] ?? null, head: b[i] ?? null, kind: a[i] === b[i] ? "same" : "mod" }));
  }
  const m = a.length;
  const n = b.length;
  const lcs = Array.from({ length: m + 1 }, () => new Int32Array(n + 1));
  for (let i = m - 1; i >= 0; i--) for (let j = n - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const rows = [];
  let i = 0;
  let j = 0;
  let dels = [];
  let adds = [];
  const flush = () => {
    // A run of removed lines beside a run of added ones: changed lines, side by side.
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const base = dels[k] ?? null;
      const head = adds[k] ?? null;
      rows.push({ base, head, kind: base !== null && head !== null ? "mod" : base !== null ? "del" : "add" });
    }
    dels = [];
    adds = [];
  };
  while (i < m || j < n) {
    if (i < m && j < n && a[i] === b[j]) {
      flush();
      rows.push({ base: a[i++], head: b[j++], kind: "same" });
    } else if (j < n && (i >= m || lcs[i][j + 1] >= lcs[i + 1][j])) {
      adds.push(b[j++]);
    } else {
      dels.push(a[i++]);
    }
  }
  flush();
  return rows;
}

// A reference as text: "node.column (kind)" from {node, column, kind}, or as given.
function refText(ref) {
  if (ref == null) return "";
  if (typeof ref !== "object") return String(ref);
  const name = [ref.node, ref.column].filter(Boolean).join(".");
  return ref.kind ? `${name} (${ref.kind})` : name;
}

function ownerText(owner) {
  if (owner == null) return "";
  if (typeof owner !== "object") return String(owner);
  return [owner.name, owner.email && `<${owner.email}>`].filter(Boolean).join(" ");
}
