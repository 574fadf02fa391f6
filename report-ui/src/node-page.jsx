// The node page: what a relation or exposure is, its columns (types, descriptions, tests,
// tags, meta, classification), its compiled SQL with the selected column's expression
// marked, its neighbours, its last run and its impact.
import { useEffect, useState } from "preact/hooks";
import { columnChange, columnIndex, columnInfo, columnsOf, nodeInfo } from "./data.js";
import { href } from "./route.js";
import { ancestors, children, parents } from "./walk.js";
import { ChangeBadge, ClassBadge, Empty, ExternalUrl, NodeLink, RunBadge, TypeBadge, formatTime, plural } from "./ui.jsx";
import { SqlBlock, columnNeedles } from "./sql.jsx";
import { ImpactPanel } from "./impact.jsx";

export function NodePage({ model, node, column }) {
  const info = nodeInfo(model, node);
  const selected = column ? columnIndex(model, node, column) : -1;
  const [rows, setRows] = useState(false);
  const [showImpact, setShowImpact] = useState(false);
  const cols = columnsOf(model, node);
  const ups = parents(model, node);
  const downs = children(model, node).filter((u) => model.nodeType[u] !== "exposure");
  const exposures = children(model, node).filter((u) => model.nodeType[u] === "exposure");
  const run = model.runs && model.runs.get(node);
  const change = model.diff && model.diff.changed.get(info.id);
  const metaKeys = Object.keys(info.meta);
  useEffect(() => {
    // A deep link to a column of a wide relation: bring its row into view.
    const row = selected >= 0 && document.getElementById("col-" + model.colName[selected]);
    if (row) row.scrollIntoView({ block: "center" });
  }, [node, selected]);
  return (
    <div class="page node-page" data-testid="node-page">
      <div class="page-head">
        <div class="row">
          <TypeBadge type={info.type} />
          {info.materialized && <span class="badge">{info.materialized}</span>}
          {info.package && <span class="badge muted-badge">{info.package}</span>}
          {info.tags.map((t) => (
            <span key={t} class="badge tag">#{t}</span>
          ))}
        </div>
        <div class="row between">
          <h1>{info.name}</h1>
          <a class="btn small" href={href("overview", info.id)}>Show in overview</a>
        </div>
        <div class="mono muted">{info.id}</div>
        <dl class="facts">
          {info.path && (<><dt>File</dt><dd class="mono">{info.path}</dd></>)}
          {info.relation && (<><dt>Relation</dt><dd class="mono">{info.relation}</dd></>)}
          {info.columnsFrom && (<><dt>Columns from</dt><dd>{info.columnsFrom}</dd></>)}
          {info.owner && (<><dt>Owner</dt><dd>{info.owner}</dd></>)}
          {info.tests.length > 0 && (<><dt>Tests</dt><dd>{info.tests.map((t) => <span key={t} class="badge test">{t}</span>)}</dd></>)}
        </dl>
      </div>
      {change && (
        <div class={`banner class-${change.class}`}>
          <b>{change.change}</b> in this pull request · class <b>{change.class}</b>
          {change.reasons && change.reasons.length > 0 && <span> · {change.reasons.join("; ")}</span>}{" "}
          <a href={href("diff", info.id)}>Base and head SQL →</a>
        </div>
      )}
      {info.description ? <p class="desc">{info.description}</p> : <p class="desc muted">No description.</p>}
      {run && (
        <div class="card run-card">
          <h3>Last run</h3>
          <div class="row gap">
            <RunBadge run={run} />
            {run.at && <span>{formatTime(run.at)}</span>}
            {run.rows != null && <span>{plural(run.rows, "row")} affected</span>}
            {run.seconds != null && <span>{run.seconds.toFixed(2)} s</span>}
            {run.command && <span class="badge">{run.command}</span>}
            <span class="mono small muted">invocation {run.invocation}</span>
          </div>
          {run.message && <div class="small muted mono">{run.message}</div>}
          <div class="small muted">from {model.runsSource === "warehouse" ? "the lineage tables in the warehouse" : "target/run_results.json"}</div>
        </div>
      )}
      {info.exposure && <ExposureFacts x={info.exposure} />}
      {info.type === "exposure" && <UpstreamChain model={model} node={node} />}
      {cols.length > 0 && (
        <section class="card">
          <h3>Columns <span class="count">{cols.length}</span></h3>
          <table class="grid columns-table">
            <thead>
              <tr><th>Column</th><th>Type</th><th>Description</th><th>Tests · tags · meta</th><th>Lineage</th></tr>
            </thead>
            <tbody>
              {cols.map((c) => <ColumnRow key={c} model={model} col={c} selected={c === selected} />)}
            </tbody>
          </table>
        </section>
      )}
      <div class="two">
        <section class="card">
          <h3>Upstream <span class="count">{ups.length}</span></h3>
          {ups.length ? <div class="chips">{ups.map((u) => <NodeLink key={u} model={model} node={u} />)}</div> : <Empty>Reads no relation of the project.</Empty>}
        </section>
        <section class="card">
          <h3>Downstream <span class="count">{downs.length + exposures.length}</span></h3>
          {downs.length + exposures.length ? (
            <div class="chips">{[...downs, ...exposures].map((u) => <NodeLink key={u} model={model} node={u} />)}</div>
          ) : (
            <Empty>Nothing reads it.</Empty>
          )}
        </section>
      </div>
      {metaKeys.length > 0 && (
        <section class="card">
          <h3>Meta</h3>
          <pre class="meta">{JSON.stringify(info.meta, null, 2)}</pre>
        </section>
      )}
      {info.type !== "exposure" && (
        <section class="card">
          <h3>
            Compiled SQL
            {selected >= 0 && <span class="muted small"> · marking {model.colName[selected]}</span>}
          </h3>
          <SqlBlock sql={info.sql} needles={columnNeedles(model, selected)} />
        </section>
      )}
      {info.type !== "exposure" && (
        <section class="card">
          <div class="row between">
            <h3>Impact of the whole {info.type}</h3>
            <div class="row gap">
              <label class="toggle"><input type="checkbox" checked={rows} onChange={(e) => setRows(e.currentTarget.checked)} /> row-set edges</label>
              <button class="btn small" onClick={() => setShowImpact(!showImpact)}>{showImpact ? "Hide" : "Show"}</button>
            </div>
          </div>
          {showImpact && <ImpactPanel model={model} target={{ node }} rows={rows} />}
        </section>
      )}
    </div>
  );
}

function ExposureFacts({ x }) {
  return (
    <div class="card">
      <h3>Exposure</h3>
      <dl class="facts">
        <dt>Type</dt><dd><span class={`badge exp-${x.type}`}>{x.type}</span></dd>
        {x.maturity && (<><dt>Maturity</dt><dd>{x.maturity}</dd></>)}
        {x.owner && (<><dt>Owner</dt><dd>{x.owner}</dd></>)}
        {x.email && (<><dt>Email</dt><dd class="mono">{x.email}</dd></>)}
        {x.url && (<><dt>URL</dt><dd class="mono"><ExternalUrl url={x.url} /></dd></>)}
      </dl>
    </div>
  );
}

// Everything an exposure reads, directly or not, nearest first.
function UpstreamChain({ model, node }) {
  const chain = ancestors(model, node);
  const byDistance = new Map();
  for (const [u, d] of chain) {
    if (!byDistance.has(d)) byDistance.set(d, []);
    byDistance.get(d).push(u);
  }
  return (
    <section class="card" data-testid="upstream-chain">
      <h3>Upstream chain <span class="count">{chain.size}</span></h3>
      {chain.size === 0 && <Empty>Reads no relation of the project.</Empty>}
      {[...byDistance].map(([d, list]) => (
        <div key={d} class="chain-level">
          <h4 class="small muted">{plural(d, "hop")}</h4>
          <div class="chips">{list.map((u) => <NodeLink key={u} model={model} node={u} />)}</div>
        </div>
      ))}
    </section>
  );
}

function ColumnRow({ model, col, selected }) {
  const c = columnInfo(model, col);
  const id = model.nodeId[c.node];
  const change = columnChange(model, col);
  const impacted = model.diff && model.diff.impacted.get(col);
  const metaKeys = Object.keys(c.meta);
  let upstream = 0;
  for (let i = model.in.start[col]; i < model.in.start[col + 1]; i++) upstream++;
  return (
    <tr class={selected ? "selected" : ""} id={"col-" + c.name}>
      <td>
        <a class="col-link" href={href("column", id, c.name)}><span class="col-name">{c.name}</span></a>{" "}
        <ClassBadge value={c.classification} />
        <ChangeBadge value={change} />
        {impacted && <span class="badge impacted">impacted</span>}
      </td>
      <td class="mono small">{c.type}</td>
      <td class="small">{c.description}</td>
      <td class="small">
        {c.tests.map((t) => <span key={t} class="badge test">{t}</span>)}
        {c.tags.map((t) => <span key={t} class="badge tag">#{t}</span>)}
        {metaKeys.map((k) => (
          <span key={k} class="badge meta">{k}: {typeof c.meta[k] === "string" ? c.meta[k] : JSON.stringify(c.meta[k])}</span>
        ))}
      </td>
      <td class="small">
        {c.resolved ? (
          <span class="muted">{upstream ? plural(upstream, "upstream") : "no upstream"}</span>
        ) : (
          <span class="badge bad" title={c.reason}>unresolved: {c.reason.split(":")[0]}</span>
        )}
        {c.inferred && <span class="badge muted-badge" title="known only from how SQL reads it">inferred</span>}{" "}
        <a class="small" href={href("node", id, c.name)}>SQL</a>
      </td>
    </tr>
  );
}
