// The column explorer: the selected column's upstream and downstream columns as a
// left-to-right graph grouped by relation (each relation a box listing only the columns on
// the path), edges styled by kind, depth controls, row-set edges on a toggle, boxes that
// expand to every column or collapse to their header; beside it the column's card and its
// impact panel.
import { useMemo, useState } from "preact/hooks";
import { neighbourhood } from "./walk.js";
import { columnChange, columnInfo, nodeInfo } from "./data.js";
import { href } from "./route.js";
import { ChangeBadge, ClassBadge, Deferred, KIND_LABEL, Working, useDeferred, KindBadge, TypeBadge, formatTime } from "./ui.jsx";
import { ImpactPanel } from "./impact.jsx";
import { Explorer } from "./explorer.jsx";

const MAX_BOXES = 250;
const DEPTHS = [1, 2, 3, 5, 10, null];
const EMPTY = new Map();

export function ColumnView({ model, col }) {
  const [rows, setRows] = useState(false);
  const [up, setUp] = useState(undefined);
  const [down, setDown] = useState(undefined);
  const [hidden, setHidden] = useState(() => new Set());
  // Expanded and collapsed boxes belong to one focus column: a new column starts afresh.
  const [modes, setModes] = useState(() => ({ col, map: new Map() }));
  const boxMode = modes.col === col ? modes.map : EMPTY;
  const setBoxMode = (map) => setModes({ col, map });
  // The walk runs in the deferred task below, not in the render that shows the toolbar.
  const settings = useMemo(() => ({ col, rows, up, down }), [col, rows, up, down]);
  const traced = useDeferred(settings, () => traceGraph(model, settings));
  const graph = traced || { depthUp: up, depthDown: down, auto: false };
  const info = columnInfo(model, col);
  return (
    <div class="column-view">
      <div class="toolbar">
        <span class="title">
          <TypeBadge type={model.nodeType[info.node]} /> {model.nodeName[info.node]}.<b>{info.name}</b>
        </span>
        <label class="seg">
          Upstream
          <select value={String(graph.depthUp ?? "all")} onChange={(e) => setUp(parseDepth(e.currentTarget.value))}>
            {DEPTHS.map((d) => <option key={String(d)} value={String(d ?? "all")}>{d ?? "all"}</option>)}
          </select>
        </label>
        <label class="seg">
          Downstream
          <select value={String(graph.depthDown ?? "all")} onChange={(e) => setDown(parseDepth(e.currentTarget.value))}>
            {DEPTHS.map((d) => <option key={String(d)} value={String(d ?? "all")}>{d ?? "all"}</option>)}
          </select>
        </label>
        <label class="toggle" title="Joins, filters, group by, sort and distinct decide which rows a relation holds">
          <input type="checkbox" checked={rows} onChange={(e) => setRows(e.currentTarget.checked)} data-testid="rows-toggle" /> row-set edges
        </label>
        {graph.auto && <span class="muted small">large lineage: depth limited, pick “all” to draw everything</span>}
        <span class="spacer" />
        <Legend hidden={hidden} setHidden={setHidden} />
      </div>
      <div class="explorer-split">
        {traced ? (
          // The walk and the drawing in tasks of their own: neither blocks the page long.
          <Deferred token={traced} label="Drawing the lineage…" wrap="explorer">
            {() => <Explorer model={model} focus={col} nb={traced.nb} hidden={hidden} boxMode={boxMode} setBoxMode={setBoxMode} />}
          </Deferred>
        ) : (
          <div class="explorer"><Working label="Tracing the column's lineage…" /></div>
        )}
        <aside class="side" aria-label="Column details and impact">
          <ColumnCard model={model} col={col} info={info} />
          <Deferred token={settings} label="Computing the impact…">
            {() => <ImpactPanel model={model} target={{ col }} rows={rows} />}
          </Deferred>
        </aside>
      </div>
    </div>
  );
}

function traceGraph(model, { col, rows, up, down }) {
  // Without an explicit depth, step down until the drawing stays readable.
  let depthUp = up;
  let depthDown = down;
  let nb = neighbourhood(model, col, { up: depthUp ?? null, down: depthDown ?? null, rows });
  let auto = false;
  while (relationCount(model, nb) > MAX_BOXES && (up === undefined || down === undefined)) {
    const current = Math.max(depthUp ?? 99, depthDown ?? 99);
    const next = current >= 99 ? 5 : current - 1;
    if (next < 1) break;
    if (up === undefined) depthUp = next;
    if (down === undefined) depthDown = next;
    auto = true;
    nb = neighbourhood(model, col, { up: depthUp, down: depthDown, rows });
  }
  return { nb, depthUp, depthDown, auto };
}

function parseDepth(value) {
  return value === "all" ? null : Number(value);
}

function relationCount(model, nb) {
  const set = new Set();
  for (const c of nb.cols.keys()) set.add(model.colNode[c]);
  for (const n of nb.extraNodes) set.add(n);
  return set.size;
}

function Legend({ hidden, setHidden }) {
  const flip = (k) => {
    const next = new Set(hidden);
    if (next.has(k)) next.delete(k);
    else next.add(k);
    setHidden(next);
  };
  return (
    <div class="edge-legend">
      {Object.keys(KIND_LABEL).map((k) => (
        <button key={k} class={`legend-kind ${hidden.has(k) ? "off" : ""}`} onClick={() => flip(k)} title={`show or hide ${k} edges`}>
          <svg width="22" height="8"><line x1="1" y1="4" x2="21" y2="4" class={`edge kind-${k}`} /></svg>
          {KIND_LABEL[k]}
        </button>
      ))}
    </div>
  );
}

function ColumnCard({ model, col, info }) {
  const node = nodeInfo(model, info.node);
  const change = columnChange(model, col);
  const exprs = [];
  for (let i = model.in.start[col]; i < model.in.start[col + 1]; i++) {
    const e = model.in.edge[i];
    exprs.push({ src: model.in.items[i], kind: model.kinds[model.edge.kind[e]], expr: model.S[model.edge.expr[e]] });
  }
  const run = model.runs && model.runs.get(info.node);
  return (
    <section class="column-card" data-testid="column-card">
      <div class="row">
        <span class="badge type type-column">column</span>
        {info.type && <span class="badge mono">{info.type}</span>}
        <ClassBadge value={info.classification} />
        <ChangeBadge value={change} />
        {!info.resolved && <span class="badge bad">unresolved</span>}
      </div>
      <h2>{info.name}</h2>
      <div class="small">
        in <a href={href("node", node.id, info.name)}>{node.name}</a> <span class="muted mono">{node.path}</span>
      </div>
      {info.description ? <p class="desc">{info.description}</p> : <p class="desc muted small">No description.</p>}
      {!info.resolved && <p class="small bad-text">{info.reason}</p>}
      {(info.tests.length > 0 || info.tags.length > 0) && (
        <div class="row wrap">
          {info.tests.map((t) => <span key={t} class="badge test">{t}</span>)}
          {info.tags.map((t) => <span key={t} class="badge tag">#{t}</span>)}
        </div>
      )}
      {exprs.length > 0 && (
        <div class="exprs">
          {exprs.slice(0, 12).map((e, i) => (
            <div key={i} class="expr">
              <KindBadge kind={e.kind} />
              <a href={href("column", model.nodeId[model.colNode[e.src]], model.colName[e.src])} class="small">
                {model.nodeName[model.colNode[e.src]]}.{model.colName[e.src]}
              </a>
              {e.expr && <code>{e.expr}</code>}
            </div>
          ))}
        </div>
      )}
      {run && (
        <div class="small muted">
          last run: <b>{run.status}</b> {formatTime(run.at)} {run.rows != null ? `· ${run.rows} rows` : ""}
        </div>
      )}
    </section>
  );
}
