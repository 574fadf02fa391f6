// The column explorer's canvas: boxes and edges from scene.js on a stage that pans (drag,
// arrow keys) and zooms (wheel, + and −), a Fit button, and boxes whose rows are links, so
// every column of the drawing is reachable and operable by keyboard.
import { useEffect, useLayoutEffect, useMemo, useRef } from "preact/hooks";
import { columnChange, columnInfo } from "./data.js";
import { href } from "./route.js";
import { KIND_LABEL, distinctShort, plural } from "./ui.jsx";
import { BOX_W, buildScene } from "./scene.js";
import { TYPE_COLORS } from "./overview.js";

export function Explorer({ model, focus, nb, hidden, boxMode, setBoxMode }) {
  const wrap = useRef(null);
  const stage = useRef(null);
  const view = useRef({ x: 20, y: 20, k: 1 });
  const setView = (next) => {
    view.current = next;
    if (stage.current) stage.current.style.transform = `translate(${next.x}px, ${next.y}px) scale(${next.k})`;
  };
  const scene = useMemo(() => buildScene(model, focus, nb, boxMode, hidden), [model, focus, nb, boxMode, hidden]);
  const titles = useMemo(() => distinctShort(scene.boxes.map((b) => (b.group ? "" : model.nodeName[b.node])), () => TITLE_CHARS), [scene]);
  const moved = useRef(false);
  const fitView = (whole) => {
    const el = wrap.current;
    if (!el) return;
    const w = el.clientWidth;
    const h = el.clientHeight;
    // The whole drawing when it fits at a readable scale (or when asked), else the focus
    // column in the middle.
    const fit = Math.min(1, (w - 40) / Math.max(scene.width, 1), (h - 60) / Math.max(scene.height, 1));
    const k = whole ? Math.max(fit, 0.05) : fit >= 0.5 ? fit : 0.75;
    const fx = scene.focusPoint && !whole ? scene.focusPoint[0] : scene.width / 2;
    const fy = scene.focusPoint && !whole ? scene.focusPoint[1] : scene.height / 2;
    const x = scene.width * k <= w ? (w - scene.width * k) / 2 : w / 2 - fx * k;
    const y = scene.height * k <= h ? (h - scene.height * k) / 2 : h / 2 - fy * k;
    setView({ x, y, k });
  };
  useLayoutEffect(() => {
    moved.current = false;
    fitView(false);
  }, [focus, nb]);
  useEffect(() => {
    // Refit when the explorer's size changes (window, model tree shown or hidden) until the
    // user pans or zooms.
    const observer = new ResizeObserver(() => moved.current || fitView(false));
    observer.observe(wrap.current);
    return () => observer.disconnect();
  }, [scene]);
  const drag = useRef(null);
  const onPointerDown = (e) => {
    if (e.target.closest(".box, .explorer-tools")) return;
    drag.current = { x: e.clientX, y: e.clientY, vx: view.current.x, vy: view.current.y };
    moved.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e) => {
    const d = drag.current;
    if (d) setView({ ...view.current, x: d.vx + e.clientX - d.x, y: d.vy + e.clientY - d.y });
  };
  const zoomAt = (px, py, factor) => {
    moved.current = true;
    const v = view.current;
    const k = Math.min(2.5, Math.max(0.05, v.k * factor));
    setView({ k, x: px - ((px - v.x) * k) / v.k, y: py - ((py - v.y) * k) / v.k });
  };
  const onWheel = (e) => {
    e.preventDefault();
    const rect = wrap.current.getBoundingClientRect();
    zoomAt(e.clientX - rect.left, e.clientY - rect.top, Math.exp(-e.deltaY * 0.0015));
  };
  useEffect(() => {
    const el = wrap.current;
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  });
  const zoomCentre = (factor) => zoomAt(wrap.current.clientWidth / 2, wrap.current.clientHeight / 2, factor);
  const onKeyDown = (e) => {
    if (e.target !== e.currentTarget) return;
    const step = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] }[e.key];
    if (step) {
      e.preventDefault();
      moved.current = true;
      setView({ ...view.current, x: view.current.x + step[0], y: view.current.y + step[1] });
    } else if (e.key === "+" || e.key === "=") zoomCentre(1.25);
    else if (e.key === "-") zoomCentre(0.8);
    else if (e.key === "0") fitView(true);
  };
  // Keep a row reached by Tab on screen.
  const onFocusIn = (e) => {
    const el = e.target;
    if (!el.closest || !el.closest(".box")) return;
    const rect = wrap.current.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    if (box.left >= rect.left && box.right <= rect.right && box.top >= rect.top && box.bottom <= rect.bottom) return;
    moved.current = true;
    const v = view.current;
    setView({ ...v, x: v.x + rect.left + rect.width / 2 - (box.left + box.right) / 2, y: v.y + rect.top + rect.height / 2 - (box.top + box.bottom) / 2 });
  };
  const openGroup = (group) => {
    const next = new Map(boxMode);
    for (const node of group.nodes) next.set(node, "collapsed");
    setBoxMode(next);
  };
  const setMode = (node, mode) => {
    const next = new Map(boxMode);
    next.set(node, mode);
    setBoxMode(next);
  };
  return (
    <div
      class="explorer"
      ref={wrap}
      tabIndex={0}
      role="region"
      aria-label="Column lineage drawing: arrow keys pan, + and − zoom, 0 fits; Tab reaches each column"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => (drag.current = null)}
      onKeyDown={onKeyDown}
      onFocusIn={onFocusIn}
      onScroll={(e) => {
        // Focusing a row may scroll the clipped container: the stage transform pans instead.
        e.currentTarget.scrollTop = 0;
        e.currentTarget.scrollLeft = 0;
      }}
      data-testid="explorer"
    >
      <div class="stage" ref={stage} style={{ width: scene.width + "px", height: scene.height + "px" }}>
        <svg class="edges" width={scene.width} height={scene.height} aria-hidden="true">
          {scene.paths.map((p) => (
            <path key={p.kind + p.hot} d={p.d} class={`edge kind-${p.kind} ${p.hot ? "hot" : ""}`} />
          ))}
        </svg>
        {scene.boxes.map((b, i) =>
          b.group ? (
            <GroupBox key={"g" + b.folder + b.distance} box={b} open={() => openGroup(b)} />
          ) : (
            <Box key={b.node} model={model} box={b} title={titles[i]} focus={focus} setMode={setMode} />
          ),
        )}
      </div>
      <div class="explorer-tools">
        <button class="btn small" onClick={() => fitView(true)} data-testid="fit" title="Show the whole drawing (0)">Fit</button>
        <button class="btn small" onClick={() => zoomCentre(1.25)} aria-label="Zoom in">+</button>
        <button class="btn small" onClick={() => zoomCentre(0.8)} aria-label="Zoom out">−</button>
      </div>
      <div class="explorer-foot small">
        {plural(scene.boxes.length, "relation")} · {plural(scene.columnCount, "column")} shown · {plural(scene.edgeCount, "edge")}
        {scene.collapsed > 0 && ` · ${plural(scene.collapsed, "far relation")} folded (▾ opens)`}
        {scene.grouped > 0 && ` · ${plural(scene.grouped, "relation")} grouped by folder (Show opens)`} · drag to pan, scroll to zoom, click a column to follow it
      </div>
    </div>
  );
}

// Folded relations of one folder at one distance, as one box with their count.
function GroupBox({ box, open }) {
  const where = box.distance < 0 ? `${-box.distance} up` : `${box.distance} down`;
  return (
    <div class="box collapsed group" style={{ left: box.x + "px", top: box.y + "px", width: BOX_W + "px", height: box.h + "px" }} data-group={box.folder}>
      <div class="box-head">
        <span class="box-title" title={box.folder}>{plural(box.nodes.length, "relation")}</span>
        <span class="box-sub" title={box.folder}>{box.folder} · {where}</span>
        <span class="box-tools">
          <button onClick={open} aria-label={`Show the ${box.nodes.length} relations of ${box.folder}, ${where}`}>Show</button>
        </span>
      </div>
    </div>
  );
}

function exposureSub(model, node) {
  const x = model.exposure.get(node) || {};
  return [x.type || "exposure", x.owner].filter(Boolean).join(" · ");
}

function boxSub(model, box, type) {
  if (box.exposure) return exposureSub(model, box.node);
  let text = type;
  if (box.distance !== 0) text += ` · ${box.distance < 0 ? `${-box.distance} up` : `${box.distance} down`}`;
  if (box.rowsOnly) text += " · rows decided";
  else if (box.mode === "collapsed") text += ` · ${plural(box.onPath, "column")}`;
  return text;
}

// Characters that fit beside the row's badges (12 px monospace: about 7.3 px a character).
function rowChars(type, kind) {
  let room = BOX_W - 18;
  if (type) room -= Math.min(type.length * 6 + 6, 76);
  if (kind) room -= (KIND_LABEL[kind] || kind).length * 5.6 + 14;
  return Math.max(8, Math.floor(room / 7.3));
}

const TITLE_CHARS = 22;

function Box({ model, box, title, focus, setMode }) {
  const node = box.node;
  const type = model.nodeType[node];
  const total = model.colStart[node + 1] - model.colStart[node];
  const diff = model.diff;
  const changed = diff && diff.changed.has(model.nodeId[node]);
  const name = model.nodeName[node];
  const rows = box.rows.map((r) => {
    const info = columnInfo(model, r.col);
    const change = columnChange(model, r.col);
    return { ...r, info, change, kind: r.col !== focus ? r.kind || "" : "" };
  });
  const shown = distinctShort(
    rows.map((r) => model.colName[r.col]),
    (i) => rowChars(rows[i].info.type, rows[i].kind) - (rows[i].info.classification ? 4 : 0) - (rows[i].change ? 7 : 0),
  );
  return (
    <div
      class={`box ${box.mode} ${box.hasFocus ? "has-focus" : ""} ${changed ? "changed" : ""}`}
      style={{ left: box.x + "px", top: box.y + "px", width: BOX_W + "px", height: box.h + "px", "--type": TYPE_COLORS[type] }}
      data-node={model.nodeId[node]}
    >
      <div class="box-head">
        <a class="box-title" href={href("node", model.nodeId[node])} title={model.nodeId[node]}>{title}</a>
        <span class="box-sub" title={boxSub(model, box, type)}>{boxSub(model, box, type)}</span>
        {!box.exposure && (
          <span class="box-tools">
            {box.mode !== "all" && total > box.rows.length && box.mode !== "collapsed" && (
              <button title={`Show all ${total} columns`} aria-label={`+${total - box.rows.length}: show all ${total} columns of ${name}`} onClick={() => setMode(node, "all")}>+{total - box.rows.length}</button>
            )}
            {box.mode === "all" && <button title="Only the columns on the path" aria-label={`Only the columns of ${name} on the path`} onClick={() => setMode(node, "path")}>−</button>}
            {box.mode !== "collapsed" ? (
              <button title="Collapse" aria-label={`Collapse ${name}`} onClick={() => setMode(node, "collapsed")}>▴</button>
            ) : (
              <button title="Expand" aria-label={`Expand ${name}`} onClick={() => setMode(node, "path")} data-testid="expand">▾</button>
            )}
          </span>
        )}
      </div>
      {box.mode !== "collapsed" &&
        rows.map((r, i) => {
          const { col, info, change, kind } = r;
          const colName = model.colName[col];
          return (
            <a
              key={col}
              class={`box-row ${col === focus ? "focus" : ""} ${r.onPath ? "" : "off-path"} ${diff && diff.impacted.has(col) ? "impacted" : ""}`}
              href={href("column", model.nodeId[node], colName)}
              title={info.description ? `${colName}: ${info.description}` : colName}
              data-col={colName}
              aria-current={col === focus ? "true" : undefined}
            >
              <span class="row-name">{shown[i]}</span>
              {info.classification && <span class="mini pii">PII</span>}
              {change && <span class="mini change">{String(change).split(":")[0]}</span>}
              {kind && <span class={`mini kind-${kind}`}>{KIND_LABEL[kind]}</span>}
              {info.type && <span class="row-type">{info.type}</span>}
            </a>
          );
        })}
    </div>
  );
}
