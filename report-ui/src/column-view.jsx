// The column explorer: the selected column's upstream and downstream columns as a
// left-to-right graph grouped by relation (each relation a box listing only the columns on
// the path), edges styled by kind, depth controls, row-set edges on a toggle, boxes that
// expand to every column or collapse to their header; beside it the column's card and its
// impact panel.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import dagre from "@dagrejs/dagre";
import { neighbourhood } from "./walk.js";
import { columnChange, columnInfo, columnsOf, nodeInfo } from "./data.js";
import { go, href } from "./route.js";
import { ChangeBadge, ClassBadge, KIND_LABEL, KindBadge, TypeBadge, formatTime, plural } from "./ui.jsx";
import { ImpactPanel } from "./impact.jsx";
import { TYPE_COLORS } from "./overview.js";

const BOX_W = 210;
const HEAD_H = 40;
const ROW_H = 24;
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
  const graph = useMemo(() => {
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
  }, [model, col, rows, up, down]);
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
        <Explorer model={model} focus={col} nb={graph.nb} hidden={hidden} boxMode={boxMode} setBoxMode={setBoxMode} />
        <aside class="side">
          <ColumnCard model={model} col={col} info={info} />
          <ImpactPanel model={model} target={{ col }} rows={rows} />
        </aside>
      </div>
    </div>
  );
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

function Explorer({ model, focus, nb, hidden, boxMode, setBoxMode }) {
  const wrap = useRef(null);
  const stage = useRef(null);
  const view = useRef({ x: 20, y: 20, k: 1 });
  const setView = (next) => {
    view.current = next;
    if (stage.current) stage.current.style.transform = `translate(${next.x}px, ${next.y}px) scale(${next.k})`;
  };
  const scene = useMemo(() => buildScene(model, focus, nb, boxMode, hidden), [model, focus, nb, boxMode, hidden]);
  const moved = useRef(false);
  const fitView = () => {
    // Fit the drawing, keeping the focus column in view.
    const el = wrap.current;
    if (!el) return;
    const w = el.clientWidth;
    const h = el.clientHeight;
    // The whole drawing when it fits at a readable scale, else the focus column in the middle.
    const fit = Math.min(1, (w - 40) / Math.max(scene.width, 1), (h - 60) / Math.max(scene.height, 1));
    const k = fit >= 0.5 ? fit : 0.75;
    const fx = scene.focusPoint ? scene.focusPoint[0] : scene.width / 2;
    const fy = scene.focusPoint ? scene.focusPoint[1] : scene.height / 2;
    const x = scene.width * k <= w ? (w - scene.width * k) / 2 : w / 2 - fx * k;
    const y = scene.height * k <= h ? (h - scene.height * k) / 2 : h / 2 - fy * k;
    setView({ x, y, k });
  };
  useLayoutEffect(() => {
    moved.current = false;
    fitView();
  }, [focus, nb]);
  useEffect(() => {
    // Refit when the explorer's size changes (window, model tree shown or hidden) until the
    // user pans or zooms.
    const observer = new ResizeObserver(() => moved.current || fitView());
    observer.observe(wrap.current);
    return () => observer.disconnect();
  }, [scene]);
  const drag = useRef(null);
  const onPointerDown = (e) => {
    if (e.target.closest(".box")) return;
    drag.current = { x: e.clientX, y: e.clientY, vx: view.current.x, vy: view.current.y };
    moved.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e) => {
    const d = drag.current;
    if (d) setView({ ...view.current, x: d.vx + e.clientX - d.x, y: d.vy + e.clientY - d.y });
  };
  const onWheel = (e) => {
    e.preventDefault();
    moved.current = true;
    const rect = wrap.current.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    const v = view.current;
    const k = Math.min(2.5, Math.max(0.15, v.k * Math.exp(-e.deltaY * 0.0015)));
    setView({ k, x: px - ((px - v.x) * k) / v.k, y: py - ((py - v.y) * k) / v.k });
  };
  useEffect(() => {
    const el = wrap.current;
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  });
  const setMode = (node, mode) => {
    const next = new Map(boxMode);
    next.set(node, mode);
    setBoxMode(next);
  };
  return (
    <div class="explorer" ref={wrap} onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={() => (drag.current = null)} data-testid="explorer">
      <div class="stage" ref={stage} style={{ width: scene.width + "px", height: scene.height + "px" }}>
        <svg class="edges" width={scene.width} height={scene.height}>
          {scene.paths.map((p, i) => (
            <path key={i} d={p.d} class={`edge kind-${p.kind} ${p.hot ? "hot" : ""}`}>
              <title>{KIND_LABEL[p.kind] || p.kind}</title>
            </path>
          ))}
        </svg>
        {scene.boxes.map((b) => (
          <Box key={b.node} model={model} box={b} focus={focus} setMode={setMode} />
        ))}
      </div>
      <div class="explorer-foot small muted">
        {plural(scene.boxes.length, "relation")} · {plural(scene.columnCount, "column")} · {plural(scene.paths.length, "edge")} · drag to pan, scroll to zoom, click a column to follow it
      </div>
    </div>
  );
}

function exposureSub(model, node) {
  const x = model.exposure.get(node) || {};
  return [x.type || "exposure", x.owner].filter(Boolean).join(" · ");
}

function Box({ model, box, focus, setMode }) {
  const node = box.node;
  const type = model.nodeType[node];
  const total = model.colStart[node + 1] - model.colStart[node];
  const diff = model.diff;
  const changed = diff && diff.changed.has(model.nodeId[node]);
  return (
    <div
      class={`box ${box.mode} ${box.hasFocus ? "has-focus" : ""} ${changed ? "changed" : ""}`}
      style={{ left: box.x + "px", top: box.y + "px", width: BOX_W + "px", height: box.h + "px", "--type": TYPE_COLORS[type] }}
      data-node={model.nodeId[node]}
    >
      <div class="box-head">
        <a class="box-title" href={href("node", model.nodeId[node])} title={model.nodeId[node]}>{model.nodeName[node]}</a>
        <span class="box-sub">
          {box.exposure ? exposureSub(model, node) : type}
          {!box.exposure && box.distance !== 0 && <span> · {box.distance < 0 ? `${-box.distance} up` : `${box.distance} down`}</span>}
          {box.rowsOnly && !box.exposure && " · rows decided"}
        </span>
        {!box.exposure && <span class="box-tools">
          {box.mode !== "all" && total > box.rows.length && (
            <button title={`Show all ${total} columns`} onClick={() => setMode(node, "all")}>+{total - box.rows.length}</button>
          )}
          {box.mode === "all" && <button title="Only the columns on the path" onClick={() => setMode(node, "path")}>−</button>}
          {box.mode !== "collapsed" ? (
            <button title="Collapse" onClick={() => setMode(node, "collapsed")}>▴</button>
          ) : (
            <button title="Expand" onClick={() => setMode(node, "path")}>▾</button>
          )}
        </span>}
      </div>
      {box.mode !== "collapsed" &&
        box.rows.map((r) => {
          const info = columnInfo(model, r.col);
          const change = columnChange(model, r.col);
          return (
            <div
              key={r.col}
              class={`box-row ${r.col === focus ? "focus" : ""} ${r.onPath ? "" : "off-path"} ${diff && diff.impacted.has(r.col) ? "impacted" : ""}`}
              onClick={() => go("column", model.nodeId[node], model.colName[r.col])}
              title={info.description || model.colName[r.col]}
              data-col={model.colName[r.col]}
            >
              <span class="row-name">{model.colName[r.col]}</span>
              {info.classification && <span class="mini pii">PII</span>}
              {change && <span class="mini change">{String(change).split(":")[0]}</span>}
              {r.kind && r.col !== focus && <span class={`mini kind-${r.kind}`}>{KIND_LABEL[r.kind]}</span>}
              <span class="row-type">{info.type}</span>
            </div>
          );
        })}
    </div>
  );
}

// Boxes placed by dagre (left to right by dependency), column rows inside each box, and the
// edges between rows as curves.
function buildScene(model, focus, nb, boxMode, hidden) {
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
  const boxes = [];
  const g = new dagre.graphlib.Graph({ multigraph: false });
  g.setGraph({ rankdir: "LR", nodesep: 22, ranksep: 64, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const r of relations.values()) {
    const mode = boxMode.get(r.node) || "path";
    let rows;
    if (mode === "all") {
      rows = columnsOf(model, r.node).map((c) => ({ col: c, kind: r.cols.get(c) || "", onPath: r.cols.has(c) }));
    } else if (mode === "collapsed") rows = [];
    else rows = [...r.cols].sort((a, b) => a[0] - b[0]).map(([c, kind]) => ({ col: c, kind, onPath: true }));
    const h = HEAD_H + rows.length * ROW_H + (rows.length ? 4 : 0);
    const box = { node: r.node, mode, rows, h, distance: r.distance ?? 0, rowsOnly: r.rowsOnly, hasFocus: r.cols.has(focus) };
    boxes.push(box);
    g.setNode(String(r.node), { width: BOX_W, height: h });
  }
  for (const [node, readers] of exposures) {
    const box = { node, mode: "collapsed", rows: [], h: HEAD_H, distance: 1, exposure: true, readers };
    boxes.push(box);
    g.setNode(String(node), { width: BOX_W, height: HEAD_H });
    for (const reader of readers) g.setEdge(String(reader), String(node));
  }
  const visible = nb.edges.filter((e) => !hidden.has(e.kind));
  const rowEdges = nb.rowEdges.filter((e) => !hidden.has(e.kind));
  for (const e of visible) {
    const a = model.colNode[e.src];
    const b = model.colNode[e.dst];
    if (a !== b) g.setEdge(String(a), String(b));
  }
  for (const e of rowEdges) {
    const a = model.colNode[e.src];
    if (a !== e.node) g.setEdge(String(a), String(e.node));
  }
  if (boxes.length <= MAX_BOXES * 2) dagre.layout(g);
  else columnsLayout(boxes, g);
  let width = 0;
  let height = 0;
  const byNode = new Map();
  for (const b of boxes) {
    const n = g.node(String(b.node));
    b.x = n.x - BOX_W / 2;
    b.y = n.y - b.h / 2;
    width = Math.max(width, b.x + BOX_W + 20);
    height = Math.max(height, b.y + b.h + 20);
    byNode.set(b.node, b);
  }
  const anchor = (col, side) => {
    const b = byNode.get(model.colNode[col]);
    const x = side === "out" ? b.x + BOX_W : b.x;
    const index = b.rows.findIndex((r) => r.col === col);
    const y = b.mode === "collapsed" || index < 0 ? b.y + HEAD_H / 2 : b.y + HEAD_H + index * ROW_H + ROW_H / 2 + 2;
    return [x, y];
  };
  const curve = ([x1, y1], [x2, y2]) => {
    const dx = Math.max(40, Math.abs(x2 - x1) / 2);
    return `M${x1},${y1} C${x1 + dx},${y1} ${x2 - dx},${y2} ${x2},${y2}`;
  };
  const paths = [];
  for (const e of visible) {
    paths.push({ d: curve(anchor(e.src, "out"), anchor(e.dst, "in")), kind: e.kind, hot: e.src === focus || e.dst === focus });
  }
  for (const e of rowEdges) {
    const b = byNode.get(e.node);
    paths.push({ d: curve(anchor(e.src, "out"), [b.x, b.y + HEAD_H / 2]), kind: e.kind, hot: false });
  }
  for (const [node, readers] of exposures) {
    const b = byNode.get(node);
    for (const reader of readers) {
      const a = byNode.get(reader);
      paths.push({ d: curve([a.x + BOX_W, a.y + HEAD_H / 2], [b.x, b.y + HEAD_H / 2]), kind: "depends", hot: false });
    }
  }
  const fb = byNode.get(model.colNode[focus]);
  const focusPoint = fb ? anchor(focus, "in") : null;
  let columnCount = 0;
  for (const b of boxes) columnCount += b.rows.length;
  return { boxes, paths, width, height, focusPoint, columnCount };
}

// For very large neighbourhoods: columns by signed distance, no crossing minimisation.
function columnsLayout(boxes, g) {
  const byDistance = new Map();
  for (const b of boxes) {
    if (!byDistance.has(b.distance)) byDistance.set(b.distance, []);
    byDistance.get(b.distance).push(b);
  }
  const keys = [...byDistance.keys()].sort((a, b) => a - b);
  keys.forEach((d, i) => {
    let y = 20;
    for (const b of byDistance.get(d)) {
      g.setNode(String(b.node), { width: BOX_W, height: b.h, x: 20 + i * (BOX_W + 110) + BOX_W / 2, y: y + b.h / 2 });
      y += b.h + 22;
    }
  });
}
