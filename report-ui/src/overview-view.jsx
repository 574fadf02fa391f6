// The model overview: the whole project DAG (canvas), colored by resource type or folder,
// with a card for the selected node.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { layout, OverviewCanvas, TYPE_COLORS, folderColor } from "./overview.js";
import { go, href } from "./route.js";
import { TypeBadge, plural } from "./ui.jsx";
import { children, parents } from "./walk.js";
import { nodeInfo } from "./data.js";
import { naturalCompare } from "./natural.js";

const LEGEND_FOLDERS = 14;

export function OverviewView({ model, selected }) {
  const lay = useMemo(() => layout(model), [model]);
  const canvas = useRef(null);
  const view = useRef(null);
  const [colorBy, setColorBy] = useState("type");
  const [current, setCurrent] = useState(selected);
  useEffect(() => {
    view.current = new OverviewCanvas(canvas.current, model, lay, {
      select: (u) => {
        setCurrent(u);
      },
      open: (u) => go("node", model.nodeId[u]),
    });
    window.__overview = view.current;
    if (selected >= 0) view.current.focusNode(selected);
    return () => view.current.destroy();
  }, [model, lay]);
  useEffect(() => {
    view.current.setSelected(current);
  }, [current]);
  useEffect(() => {
    view.current.colorBy = colorBy;
    view.current.request();
  }, [colorBy]);
  // The legend names the largest folders; the canvas colours every folder.
  const folders = useMemo(() => {
    const count = new Map();
    for (const f of model.nodeFolder) count.set(f, (count.get(f) || 0) + 1);
    return [...count.keys()].sort((a, b) => count.get(b) - count.get(a) || naturalCompare(a, b));
  }, [model]);
  return (
    <div class="overview">
      <div class="toolbar">
        <span class="title">Project DAG</span>
        <span class="muted">{plural(model.N, "node")} in {lay.levels} layers · scroll to zoom, drag to pan, double-click to open</span>
        <span class="spacer" />
        <label class="seg">
          Color by
          <select value={colorBy} onChange={(e) => setColorBy(e.currentTarget.value)}>
            <option value="type">resource type</option>
            <option value="folder">folder</option>
          </select>
        </label>
        <button class="btn small" onClick={() => view.current.fit()}>Fit</button>
      </div>
      <div class="canvas-wrap">
        <canvas ref={canvas} class="dag" role="img" aria-label={`The project DAG: ${plural(model.N, "node")} in ${lay.levels} layers, coloured by ${colorBy === "type" ? "resource type" : "folder"}. The model tree lists every node.`} />
        <div class="legend">
          {colorBy === "type"
            ? Object.entries(TYPE_COLORS).map(([t, c]) => (
                <span key={t} class="legend-item">
                  <span class="swatch" style={{ background: c }} />
                  {t}
                </span>
              ))
            : folders.slice(0, LEGEND_FOLDERS).map((f) => (
                <span key={f} class="legend-item" data-testid="folder-legend">
                  <span class="swatch" style={{ background: folderColor(model, f) }} />
                  {f}
                </span>
              ))}
          {colorBy === "folder" && folders.length > LEGEND_FOLDERS && (
            <span class="legend-item muted">and {plural(folders.length - LEGEND_FOLDERS, "smaller folder")}</span>
          )}
          {model.diff && (
            <>
              <span class="legend-item"><span class="swatch ring changed" />changed</span>
              <span class="legend-item"><span class="swatch ring impacted" />impacted</span>
            </>
          )}
        </div>
        {current >= 0 && <NodeCard model={model} node={current} onClose={() => setCurrent(-1)} />}
      </div>
    </div>
  );
}

function NodeCard({ model, node, onClose }) {
  const info = nodeInfo(model, node);
  const ups = parents(model, node);
  const downs = children(model, node);
  const cols = model.colStart[node + 1] - model.colStart[node];
  return (
    <div class="node-card">
      <button class="close" onClick={onClose} aria-label="Close">×</button>
      <div class="row">
        <TypeBadge type={info.type} />
        {info.materialized && <span class="badge">{info.materialized}</span>}
      </div>
      <h3>{info.name}</h3>
      <div class="mono muted small">{info.id}</div>
      {info.description && <p class="desc clamp">{info.description}</p>}
      <div class="small muted">
        {plural(cols, "column")} · {plural(ups.length, "parent")} · {plural(downs.length, "child", "children")}
      </div>
      <div class="row gap">
        <a class="btn primary small" href={href("node", info.id)}>Open</a>
        {cols > 0 && (
          <a class="btn small" href={href("column", info.id, model.colName[model.colStart[node]])}>Column lineage</a>
        )}
      </div>
    </div>
  );
}
