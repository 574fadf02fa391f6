// The project DAG on a 2D canvas, readable from 10 models to 10,000: a layered layout
// (longest path from the sources, folders kept together, ordered by the barycentre of the
// parents), drawn with level of detail. Zoomed out, each folder of each layer is one block
// and edges are bundled between blocks; zoomed in, nodes appear, then their names and edges.
// A selected node's neighbourhood (two hops up and down) is always drawn on top.
import { naturalCompare } from "./natural.js";

export const TYPE_COLORS = {
  source: "#16a34a",
  seed: "#0d9488",
  model: "#2563eb",
  snapshot: "#9333ea",
  exposure: "#ea580c",
};
const NODE_W = 150;
const NODE_H = 22;
const GAP_Y = 8;
const GAP_X = 90;
const FOLDER_GAP = 26;

// One colour per folder, none repeated: folders in natural order take hues a golden angle
// apart (about 137.5 degrees), with three lightness steps, so neighbours never look alike.
export function folderColors(model) {
  if (!model.folderColors) {
    const folders = [...new Set(model.nodeFolder)].sort(naturalCompare);
    model.folderColors = new Map(
      folders.map((f, i) => [f, `hsl(${((i * 137.508) % 360).toFixed(1)} ${60 + (i % 2) * 10}% ${[42, 52, 34][i % 3]}%)`]),
    );
  }
  return model.folderColors;
}

export function folderColor(model, folder) {
  return folderColors(model).get(folder) || "#64748b";
}

const GAP_COL = 24;
const VIEW_ASPECT = 1.7;

// Layers by longest path from the sources; inside a layer, folders kept together and
// ordered by the barycentre of their parents. A layer taller than the target height wraps
// into several visual columns, so a 10,000-model project keeps the viewport's shape; a
// folder spanning several columns starts on a fresh one, so each folder of each layer is
// one rectangle (what the zoomed-out view draws).
export function layout(model) {
  const N = model.N;
  const level = new Int32Array(N);
  const indegree = new Int32Array(N);
  for (let i = 0; i < model.depOut.items.length; i++) indegree[model.depOut.items[i]]++;
  const queue = [];
  for (let i = 0; i < N; i++) if (!indegree[i]) queue.push(i);
  let head = 0;
  while (head < queue.length) {
    const u = queue[head++];
    for (let i = model.depOut.start[u]; i < model.depOut.start[u + 1]; i++) {
      const v = model.depOut.items[i];
      if (level[u] + 1 > level[v]) level[v] = level[u] + 1;
      if (--indegree[v] === 0) queue.push(v);
    }
  }
  // Sources and seeds with no parents sit one layer before their first reader.
  for (let u = 0; u < N; u++) {
    if (model.depIn.start[u + 1] > model.depIn.start[u]) continue;
    let first = Infinity;
    for (let i = model.depOut.start[u]; i < model.depOut.start[u + 1]; i++) first = Math.min(first, level[model.depOut.items[i]]);
    if (first !== Infinity && first > 1 && model.nodeType[u] !== "exposure") level[u] = first - 1;
  }
  let levels = 0;
  for (let i = 0; i < N; i++) levels = Math.max(levels, level[i] + 1);
  const byLevel = Array.from({ length: levels }, () => []);
  for (let i = 0; i < N; i++) byLevel[level[i]].push(i);
  const cellH = NODE_H + GAP_Y;
  const targetH = Math.max(40 * cellH, Math.sqrt((N * (NODE_W + GAP_COL) * cellH) / VIEW_ASPECT));
  const rows = Math.max(1, Math.floor(targetH / cellH));
  const x = new Float64Array(N);
  const y = new Float64Array(N);
  const rank = new Float64Array(N);
  const groups = [];
  const columns = [];
  let cursorX = 0;
  let height = 0;
  for (let l = 0; l < levels; l++) {
    const list = byLevel[l];
    for (const u of list) {
      let sum = 0;
      let count = 0;
      for (let i = model.depIn.start[u]; i < model.depIn.start[u + 1]; i++) {
        sum += rank[model.depIn.items[i]];
        count++;
      }
      rank[u] = count ? sum / count : 0;
    }
    const folderRank = new Map();
    for (const u of list) {
      const f = model.nodeFolder[u];
      const entry = folderRank.get(f) || [0, 0];
      entry[0] += rank[u];
      entry[1]++;
      folderRank.set(f, entry);
    }
    list.sort((a, b) => {
      const fa = model.nodeFolder[a];
      const fb = model.nodeFolder[b];
      if (fa !== fb) {
        const ra = folderRank.get(fa);
        const rb = folderRank.get(fb);
        return ra[0] / ra[1] - rb[0] / rb[1] || (fa < fb ? -1 : 1);
      }
      return rank[a] - rank[b] || (model.nodeName[a] < model.nodeName[b] ? -1 : 1);
    });
    // Split into folder runs, then place the runs into columns of at most `rows` nodes.
    const runs = [];
    for (const u of list) {
      const f = model.nodeFolder[u];
      if (!runs.length || runs[runs.length - 1].folder !== f) runs.push({ folder: f, nodes: [] });
      runs[runs.length - 1].nodes.push(u);
    }
    let column = null;
    let used = 0;
    const layerColumns = [];
    const newColumn = () => {
      column = { x: cursorX + layerColumns.length * (NODE_W + GAP_COL), nodes: [], level: l };
      layerColumns.push(column);
      used = 0;
    };
    newColumn();
    for (const run of runs) {
      const gap = used ? 1 : 0; // one empty cell between folders sharing a column
      if (used && used + gap + run.nodes.length > rows) newColumn();
      else used += gap;
      const group = { level: l, folder: run.folder, nodes: run.nodes, x0: column.x, y0: used * cellH, x1: 0, y1: 0 };
      run.nodes.forEach((u, i) => {
        if (used >= rows) newColumn();
        x[u] = column.x;
        y[u] = used * cellH;
        column.nodes.push(u);
        used++;
        rank[u] = layerColumns.length * rows + used;
        group.x1 = column.x + NODE_W;
        group.y1 = Math.max(group.y1, y[u] + NODE_H);
        if (i === 0) group.y0 = y[u];
      });
      if (run.nodes.length > rows) newColumn(); // a wide folder keeps its rectangle
      groups.push(group);
    }
    if (!column.nodes.length) layerColumns.pop();
    for (const c of layerColumns) columns.push(c);
    const layerW = layerColumns.length * (NODE_W + GAP_COL) - GAP_COL;
    cursorX += layerW + GAP_X;
    for (const u of list) height = Math.max(height, y[u] + NODE_H);
  }
  // Centre each column vertically.
  for (const c of columns) {
    if (!c.nodes.length) continue;
    const last = c.nodes[c.nodes.length - 1];
    c.shift = (height - (y[last] + NODE_H)) / 2;
    for (const u of c.nodes) y[u] += c.shift;
  }
  const columnOf = new Int32Array(N);
  columns.forEach((c, ci) => c.nodes.forEach((u) => (columnOf[u] = ci)));
  for (const g of groups) {
    g.y0 = Infinity;
    g.y1 = -Infinity;
    for (const u of g.nodes) {
      g.y0 = Math.min(g.y0, y[u]);
      g.y1 = Math.max(g.y1, y[u] + NODE_H);
    }
  }
  const groupOf = new Int32Array(N);
  groups.forEach((g, gi) => g.nodes.forEach((u) => (groupOf[u] = gi)));
  const groupEdges = new Map();
  for (let u = 0; u < N; u++) {
    for (let i = model.depOut.start[u]; i < model.depOut.start[u + 1]; i++) {
      const a = groupOf[u];
      const b = groupOf[model.depOut.items[i]];
      if (a === b) continue;
      const key = a * groups.length + b;
      groupEdges.set(key, (groupEdges.get(key) || 0) + 1);
    }
  }
  const layerNames = byLevel.map((list) => {
    const counts = new Map();
    for (const u of list) {
      const t = model.nodeType[u];
      const name = t === "model" || t === "snapshot" ? model.nodeLayer[u] : t + "s";
      counts.set(name, (counts.get(name) || 0) + 1);
    }
    return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] || "";
  });
  const layerX = byLevel.map((list) => (list.length ? x[list[0]] : 0));
  return {
    x, y, level, byLevel, columns, columnOf, groups, groupOf, groupEdges, levels, layerNames, layerX,
    width: Math.max(cursorX - GAP_X, NODE_W), height, nodeW: NODE_W, nodeH: NODE_H,
  };
}

export class OverviewCanvas {
  constructor(canvas, model, lay, callbacks) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.model = model;
    this.lay = lay;
    this.cb = callbacks;
    this.colorBy = "type";
    this.selected = -1;
    this.hover = -1;
    this.highlight = null;
    this.view = { x: 0, y: 0, k: 1 };
    this.frame = 0;
    this.bind();
    this.resize();
    this.fit();
  }

  bind() {
    const c = this.canvas;
    let drag = null;
    c.addEventListener("pointerdown", (e) => {
      drag = { x: e.clientX, y: e.clientY, vx: this.view.x, vy: this.view.y, moved: false };
      c.setPointerCapture(e.pointerId);
    });
    c.addEventListener("pointermove", (e) => {
      if (drag) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        this.view.x = drag.vx + dx;
        this.view.y = drag.vy + dy;
        this.request();
      } else {
        const hit = this.hit(e);
        const group = hit >= 0 && this.lay.nodeH * this.view.k < 4 ? this.lay.groups[this.lay.groupOf[hit]] : null;
        if (group !== this.hoverGroup) {
          this.hoverGroup = group;
          this.canvas.title = group ? `${group.folder} · ${group.nodes.length} nodes` : "";
          this.request();
        }
        if (hit !== this.hover) {
          this.hover = hit;
          c.style.cursor = hit >= 0 ? "pointer" : "grab";
          this.request();
        }
      }
    });
    c.addEventListener("pointerup", (e) => {
      if (drag && !drag.moved) {
        const hit = this.hit(e);
        this.cb.select(hit);
      }
      drag = null;
    });
    c.addEventListener("dblclick", (e) => {
      const hit = this.hit(e);
      if (hit >= 0) this.cb.open(hit);
    });
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      const rect = c.getBoundingClientRect();
      this.zoomAt(e.clientX - rect.left, e.clientY - rect.top, Math.exp(-e.deltaY * 0.0015));
    }, { passive: false });
    this.observer = new ResizeObserver(() => this.resize());
    this.observer.observe(c.parentElement);
  }

  destroy() {
    this.observer.disconnect();
    cancelAnimationFrame(this.frame);
  }

  resize() {
    const parent = this.canvas.parentElement;
    const ratio = window.devicePixelRatio || 1;
    this.w = parent.clientWidth;
    this.h = parent.clientHeight;
    this.canvas.width = Math.max(1, Math.floor(this.w * ratio));
    this.canvas.height = Math.max(1, Math.floor(this.h * ratio));
    this.canvas.style.width = this.w + "px";
    this.canvas.style.height = this.h + "px";
    this.ratio = ratio;
    this.request();
  }

  fit() {
    const { width, height } = this.lay;
    const k = Math.min((this.w - 60) / Math.max(width, 1), (this.h - 60) / Math.max(height, 1), 1.6);
    this.view.k = Math.max(k, 0.002);
    this.view.x = (this.w - width * this.view.k) / 2;
    this.view.y = (this.h - height * this.view.k) / 2;
    this.request();
  }

  zoomAt(px, py, factor) {
    const k = Math.min(2.5, Math.max(0.002, this.view.k * factor));
    this.view.x = px - ((px - this.view.x) * k) / this.view.k;
    this.view.y = py - ((py - this.view.y) * k) / this.view.k;
    this.view.k = k;
    this.request();
  }

  focusNode(u) {
    const k = Math.max(this.view.k, 0.8);
    this.view.k = k;
    this.view.x = this.w / 2 - (this.lay.x[u] + this.lay.nodeW / 2) * k;
    this.view.y = this.h / 2 - (this.lay.y[u] + this.lay.nodeH / 2) * k;
    this.request();
  }

  setSelected(u) {
    this.selected = u;
    this.highlight = u >= 0 ? neighbourhoodOf(this.model, u, 2) : null;
    this.request();
  }

  hit(e) {
    const rect = this.canvas.getBoundingClientRect();
    const wx = (e.clientX - rect.left - this.view.x) / this.view.k;
    const wy = (e.clientY - rect.top - this.view.y) / this.view.k;
    const column = this.lay.columns.find((c) => wx >= c.x && wx <= c.x + this.lay.nodeW);
    if (!column) return -1;
    const list = column.nodes;
    const tolerance = Math.max(0, 4 / this.view.k - this.lay.nodeH / 2);
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const u = list[mid];
      if (wy < this.lay.y[u] - tolerance) hi = mid - 1;
      else if (wy > this.lay.y[u] + this.lay.nodeH + tolerance) lo = mid + 1;
      else return u;
    }
    return -1;
  }

  request() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  fill(u) {
    if (this.colorBy === "folder") return folderColor(this.model, this.model.nodeFolder[u]);
    return TYPE_COLORS[this.model.nodeType[u]] || "#64748b";
  }

  draw() {
    const { ctx, lay, model, view } = this;
    const r = this.ratio;
    ctx.setTransform(r, 0, 0, r, 0, 0);
    ctx.clearRect(0, 0, this.w, this.h);
    ctx.translate(view.x, view.y);
    ctx.scale(view.k, view.k);
    const k = view.k;
    const x0 = -view.x / k;
    const y0 = -view.y / k;
    const x1 = x0 + this.w / k;
    const y1 = y0 + this.h / k;
    const screenH = lay.nodeH * k;
    const diff = model.diff;
    if (screenH < 4) this.drawGroups(x0, y0, x1, y1);
    else this.drawNodes(x0, y0, x1, y1, screenH, diff);
    if (this.highlight) this.drawHighlight(diff);
    this.drawHeaders();
  }

  drawGroups(x0, y0, x1, y1) {
    const { ctx, lay, model } = this;
    const k = this.view.k;
    const maxCount = Math.max(...lay.groupEdges.values(), 1);
    for (const [key, count] of lay.groupEdges) {
      const a = lay.groups[Math.floor(key / lay.groups.length)];
      const b = lay.groups[key % lay.groups.length];
      const ax = a.x1;
      const bx = b.x0;
      const ay = (a.y0 + a.y1) / 2;
      const by = (b.y0 + b.y1) / 2;
      if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1) continue;
      const weight = Math.sqrt(count / maxCount);
      ctx.strokeStyle = `rgba(100,116,139,${0.06 + 0.4 * weight})`;
      ctx.lineWidth = (1 + 5 * weight) / k;
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      const bend = Math.max(45, (bx - ax) / 2);
      ctx.bezierCurveTo(ax + bend, ay, bx - bend, by, bx, by);
      ctx.stroke();
    }
    ctx.textBaseline = "middle";
    ctx.font = `600 ${12 / k}px system-ui, sans-serif`;
    for (const g of lay.groups) {
      if (g.x0 > x1 || g.x1 < x0 || g.y1 < y0 || g.y0 > y1) continue;
      ctx.fillStyle = this.colorBy === "folder" ? folderColor(model, g.folder) : TYPE_COLORS[model.nodeType[g.nodes[0]]] || "#64748b";
      ctx.globalAlpha = g === this.hoverGroup ? 1 : 0.82;
      ctx.fillRect(g.x0, g.y0, g.x1 - g.x0, Math.max(g.y1 - g.y0, 2 / k));
      ctx.globalAlpha = 1;
      if (this.model.diff) for (const u of g.nodes) this.diffMark(u, this.model.diff);
      const w = (g.x1 - g.x0) * k;
      const h = (g.y1 - g.y0) * k;
      if (w > 36 && h > 16) {
        ctx.fillStyle = "#fff";
        const name = g.folder.split("/").slice(-2).join("/");
        const label = fitText(ctx, `${name} · ${g.nodes.length.toLocaleString()}`, g.x1 - g.x0 - 10 / k);
        if (label) ctx.fillText(label, g.x0 + 5 / k, g.y0 + Math.min(h / 2, 14) / k);
      }
    }
  }

  drawNodes(x0, y0, x1, y1, screenH, diff) {
    const { ctx, lay, model } = this;
    const k = this.view.k;
    const W = lay.nodeW;
    const H = lay.nodeH;
    const visible = lay.columns.filter((c) => c.x + W >= x0 - 400 && c.x <= x1);
    if (screenH >= 8) {
      // Edges of visible nodes, when there are not too many.
      ctx.strokeStyle = "rgba(100,116,139,0.35)";
      ctx.lineWidth = 1 / k;
      ctx.beginPath();
      let drawn = 0;
      for (const c of visible) {
        for (const u of c.nodes) {
          if (drawn > 30000) break;
          for (let i = model.depOut.start[u]; i < model.depOut.start[u + 1]; i++) {
            const v = model.depOut.items[i];
            const ay = lay.y[u] + H / 2;
            const by = lay.y[v] + H / 2;
            if ((ay < y0 && by < y0) || (ay > y1 && by > y1)) continue;
            const ax = lay.x[u] + W;
            const bx = lay.x[v];
            const bend = Math.max(40, (bx - ax) / 2);
            ctx.moveTo(ax, ay);
            ctx.bezierCurveTo(ax + bend, ay, bx - bend, by, bx, by);
            drawn++;
          }
        }
      }
      ctx.stroke();
    }
    ctx.textBaseline = "middle";
    ctx.font = "12px system-ui, sans-serif";
    const dim = this.highlight;
    for (const c of visible) {
      const list = c.nodes;
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (lay.y[list[mid]] + H < y0) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < list.length; i++) {
        const u = list[i];
        if (lay.y[u] > y1) break;
        const fill = this.fill(u);
        ctx.globalAlpha = dim && !dim.has(u) ? 0.25 : 1;
        if (screenH >= 10) {
          ctx.fillStyle = "#fff";
          ctx.fillRect(lay.x[u], lay.y[u], W, H);
          ctx.fillStyle = fill;
          ctx.fillRect(lay.x[u], lay.y[u], 5, H);
          ctx.strokeStyle = u === this.hover ? "#0f172a" : "#cbd5e1";
          ctx.lineWidth = 1 / k;
          ctx.strokeRect(lay.x[u], lay.y[u], W, H);
          ctx.fillStyle = "#0f172a";
          ctx.fillText(fitText(ctx, model.nodeName[u], W - 14), lay.x[u] + 10, lay.y[u] + H / 2);
        } else {
          ctx.fillStyle = fill;
          ctx.fillRect(lay.x[u], lay.y[u], W, H);
        }
        if (diff) this.diffMark(u, diff);
      }
    }
    ctx.globalAlpha = 1;
  }

  drawHeaders() {
    // Layer names, in screen pixels above each layer.
    const { ctx, lay, view } = this;
    const r = this.ratio;
    ctx.setTransform(r, 0, 0, r, 0, 0);
    ctx.font = "600 12px system-ui, sans-serif";
    ctx.textBaseline = "top";
    let right = -Infinity;
    for (let l = 0; l < lay.levels; l++) {
      const sx = Math.max(view.x + lay.layerX[l] * view.k, 4);
      if (sx > this.w || sx < right + 6) continue;
      const next = l + 1 < lay.levels ? view.x + lay.layerX[l + 1] * view.k : Infinity;
      if (next < 0) continue;
      const label = `${lay.layerNames[l]} · ${lay.byLevel[l].length.toLocaleString()}`;
      const w = ctx.measureText(label).width + 12;
      ctx.fillStyle = "rgba(255,255,255,0.92)";
      ctx.fillRect(sx, 6, w, 20);
      ctx.fillStyle = "#334155";
      ctx.fillText(label, sx + 6, 10);
      right = sx + w;
    }
  }

  diffMark(u, diff) {
    const id = this.model.nodeId[u];
    const color = diff.changed.has(id) ? "#dc2626" : diff.impactedModels.has(id) ? "#f59e0b" : null;
    if (!color) return;
    const { ctx, lay } = this;
    ctx.strokeStyle = color;
    ctx.lineWidth = Math.max(2, 2 / this.view.k);
    ctx.strokeRect(lay.x[u] - 2, lay.y[u] - 2, lay.nodeW + 4, lay.nodeH + 4);
  }

  drawHighlight(diff) {
    const { ctx, lay, model } = this;
    const k = this.view.k;
    const W = lay.nodeW;
    const H = lay.nodeH;
    const set = this.highlight;
    // Zoomed out, the neighbourhood is drawn larger than its cells, with names: expanded.
    const small = H * k < 10;
    const h = small ? 16 / k : H;
    const w = small ? Math.max(W, 140 / k) : W;
    ctx.lineWidth = Math.max(1.5 / k, 1.5);
    ctx.strokeStyle = "rgba(37,99,235,0.85)";
    ctx.beginPath();
    for (const u of set) {
      for (let i = model.depOut.start[u]; i < model.depOut.start[u + 1]; i++) {
        const v = model.depOut.items[i];
        if (!set.has(v)) continue;
        const ax = lay.x[u] + w;
        const ay = lay.y[u] + H / 2;
        const bx = lay.x[v];
        const by = lay.y[v] + H / 2;
        const bend = Math.max(45, (bx - ax) / 2);
        ctx.moveTo(ax, ay);
        ctx.bezierCurveTo(ax + bend, ay, bx - bend, by, bx, by);
      }
    }
    ctx.stroke();
    ctx.font = small ? `${11 / k}px system-ui, sans-serif` : "12px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    for (const u of set) {
      const sel = u === this.selected;
      const top = lay.y[u] + H / 2 - h / 2;
      ctx.fillStyle = "#fff";
      ctx.fillRect(lay.x[u], top, w, h);
      ctx.fillStyle = this.fill(u);
      ctx.fillRect(lay.x[u], top, small ? 4 / k : 5, h);
      ctx.strokeStyle = sel ? "#1d4ed8" : "#64748b";
      ctx.lineWidth = (sel ? 2.5 : 1) / k;
      ctx.strokeRect(lay.x[u], top, w, h);
      if (diff) this.diffMark(u, diff);
      ctx.fillStyle = "#0f172a";
      const pad = small ? 8 / k : 10;
      ctx.fillText(fitText(ctx, model.nodeName[u], w - pad - 4 / k), lay.x[u] + pad, lay.y[u] + H / 2);
    }
  }
}

// A node and what is within `hops` dependency edges upstream and downstream of it.
export function neighbourhoodOf(model, u, hops) {
  const set = new Set([u]);
  for (const adj of [model.depOut, model.depIn]) {
    let layer = [u];
    for (let h = 0; h < hops; h++) {
      const next = [];
      for (const a of layer) {
        for (let i = adj.start[a]; i < adj.start[a + 1]; i++) {
          const b = adj.items[i];
          if (!set.has(b)) {
            set.add(b);
            next.push(b);
          }
        }
      }
      layer = next;
    }
  }
  return set;
}

// The text cut with an ellipsis to fit `width` (canvas units of the current font).
function fitText(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(text.slice(0, mid) + "…").width <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo > 1 ? text.slice(0, lo) + "…" : "";
}
