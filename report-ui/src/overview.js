// The project DAG on a 2D canvas, readable from 10 models to 10,000: a layered layout
// (longest path from the sources, folders kept together, ordered by the barycentre of the
// parents), drawn with level of detail. Zoomed out, each folder of each layer is one block
// and edges are bundled between blocks; zoomed in, nodes appear, then their names and edges.
// A selected node's neighbourhood (two hops up and down) is always drawn on top.

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

export function folderColor(folder) {
  let h = 0;
  for (let i = 0; i < folder.length; i++) h = (h * 31 + folder.charCodeAt(i)) >>> 0;
  return `hsl(${h % 360} 62% 52%)`;
}

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
  const y = new Float64Array(N);
  const x = new Float64Array(N);
  const rank = new Float64Array(N);
  const groups = [];
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
    let cursor = 0;
    let group = null;
    list.forEach((u, index) => {
      const f = model.nodeFolder[u];
      if (!group || group.folder !== f) {
        if (group) cursor += FOLDER_GAP;
        group = { level: l, folder: f, y0: cursor, y1: cursor, nodes: [] };
        groups.push(group);
      }
      x[u] = l * (NODE_W + GAP_X);
      y[u] = cursor;
      group.nodes.push(u);
      group.y1 = cursor + NODE_H;
      cursor += NODE_H + GAP_Y;
      rank[u] = index;
    });
    height = Math.max(height, cursor);
  }
  // Centre each layer vertically.
  for (let l = 0; l < levels; l++) {
    const list = byLevel[l];
    if (!list.length) continue;
    const last = list[list.length - 1];
    const shift = (height - (y[last] + NODE_H)) / 2;
    for (const u of list) y[u] += shift;
  }
  for (const g of groups) {
    g.y0 = y[g.nodes[0]];
    g.y1 = y[g.nodes[g.nodes.length - 1]] + NODE_H;
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
  return {
    x, y, level, byLevel, groups, groupOf, groupEdges, levels,
    width: levels * (NODE_W + GAP_X) - GAP_X, height, nodeW: NODE_W, nodeH: NODE_H,
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
    const k = Math.min(4, Math.max(0.002, this.view.k * factor));
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
    const l = Math.floor(wx / (this.lay.nodeW + 90));
    if (l < 0 || l >= this.lay.levels) return -1;
    if (wx - l * (this.lay.nodeW + 90) > this.lay.nodeW) return -1;
    const list = this.lay.byLevel[l];
    let lo = 0;
    let hi = list.length - 1;
    const tolerance = Math.max(0, 4 / this.view.k - this.lay.nodeH / 2);
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const u = list[mid];
      const top = this.lay.y[u] - tolerance;
      const bottom = this.lay.y[u] + this.lay.nodeH + tolerance;
      if (wy < top) hi = mid - 1;
      else if (wy > bottom) lo = mid + 1;
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
    if (this.colorBy === "folder") return folderColor(this.model.nodeFolder[u]);
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
  }

  drawGroups(x0, y0, x1, y1) {
    const { ctx, lay, model } = this;
    const k = this.view.k;
    const W = lay.nodeW;
    ctx.lineWidth = 1 / k;
    const maxCount = Math.max(...lay.groupEdges.values(), 1);
    for (const [key, count] of lay.groupEdges) {
      const a = lay.groups[Math.floor(key / lay.groups.length)];
      const b = lay.groups[key % lay.groups.length];
      const ax = a.level * (W + 90) + W;
      const bx = b.level * (W + 90);
      const ay = (a.y0 + a.y1) / 2;
      const by = (b.y0 + b.y1) / 2;
      if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1) continue;
      ctx.strokeStyle = `rgba(100,116,139,${0.08 + 0.5 * Math.sqrt(count / maxCount)})`;
      ctx.lineWidth = (1 + 5 * Math.sqrt(count / maxCount)) / k;
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.bezierCurveTo(ax + 45, ay, bx - 45, by, bx, by);
      ctx.stroke();
    }
    ctx.textBaseline = "middle";
    ctx.font = `${12 / k}px system-ui, sans-serif`;
    for (const g of lay.groups) {
      const gx = g.level * (W + 90);
      if (gx > x1 || gx + W < x0 || g.y1 < y0 || g.y0 > y1) continue;
      const first = g.nodes[0];
      ctx.fillStyle = this.colorBy === "folder" ? folderColor(g.folder) : TYPE_COLORS[model.nodeType[first]] || "#64748b";
      ctx.globalAlpha = 0.85;
      ctx.fillRect(gx, g.y0, W, Math.max(g.y1 - g.y0, 2 / k));
      ctx.globalAlpha = 1;
      if ((g.y1 - g.y0) * k > 16) {
        ctx.fillStyle = "#fff";
        const name = g.folder.split("/").slice(-2).join("/");
        ctx.fillText(`${name} · ${g.nodes.length}`, gx + 6 / k, (g.y0 + g.y1) / 2, W - 10 / k);
      }
    }
  }

  drawNodes(x0, y0, x1, y1, screenH, diff) {
    const { ctx, lay, model } = this;
    const k = this.view.k;
    const W = lay.nodeW;
    const H = lay.nodeH;
    const firstLevel = Math.max(0, Math.floor(x0 / (W + 90)));
    const lastLevel = Math.min(lay.levels - 1, Math.floor(x1 / (W + 90)));
    if (screenH >= 8) {
      // Edges between visible nodes, when there are not too many.
      ctx.strokeStyle = "rgba(100,116,139,0.35)";
      ctx.lineWidth = 1 / k;
      ctx.beginPath();
      let drawn = 0;
      for (let l = Math.max(0, firstLevel - 1); l <= lastLevel && drawn < 30000; l++) {
        for (const u of lay.byLevel[l]) {
          for (let i = model.depOut.start[u]; i < model.depOut.start[u + 1]; i++) {
            const v = model.depOut.items[i];
            const ay = lay.y[u] + H / 2;
            const by = lay.y[v] + H / 2;
            if ((ay < y0 && by < y0) || (ay > y1 && by > y1)) continue;
            const ax = lay.x[u] + W;
            const bx = lay.x[v];
            ctx.moveTo(ax, ay);
            ctx.bezierCurveTo(ax + 45, ay, bx - 45, by, bx, by);
            drawn++;
          }
        }
      }
      ctx.stroke();
    }
    ctx.textBaseline = "middle";
    ctx.font = `${12}px system-ui, sans-serif`;
    const dim = this.highlight;
    for (let l = firstLevel; l <= lastLevel; l++) {
      const list = lay.byLevel[l];
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
          ctx.fillText(model.nodeName[u], lay.x[u] + 10, lay.y[u] + H / 2, W - 14);
        } else {
          ctx.fillStyle = fill;
          ctx.fillRect(lay.x[u], lay.y[u], W, H);
        }
        if (diff) this.diffMark(u, diff);
      }
    }
    ctx.globalAlpha = 1;
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
    ctx.lineWidth = Math.max(1.5 / k, 1.5);
    ctx.strokeStyle = "rgba(37,99,235,0.85)";
    ctx.beginPath();
    for (const u of set) {
      for (let i = model.depOut.start[u]; i < model.depOut.start[u + 1]; i++) {
        const v = model.depOut.items[i];
        if (!set.has(v)) continue;
        const ax = lay.x[u] + W;
        const ay = lay.y[u] + H / 2;
        const bx = lay.x[v];
        const by = lay.y[v] + H / 2;
        ctx.moveTo(ax, ay);
        ctx.bezierCurveTo(ax + 45, ay, bx - 45, by, bx, by);
      }
    }
    ctx.stroke();
    ctx.font = `${Math.max(12, 12 / k)}px system-ui, sans-serif`;
    ctx.textBaseline = "middle";
    for (const u of set) {
      const sel = u === this.selected;
      ctx.fillStyle = "#fff";
      ctx.fillRect(lay.x[u], lay.y[u], W, H);
      ctx.fillStyle = this.fill(u);
      ctx.fillRect(lay.x[u], lay.y[u], 5, H);
      ctx.strokeStyle = sel ? "#1d4ed8" : "#64748b";
      ctx.lineWidth = (sel ? 3 : 1) / Math.min(k, 1);
      ctx.strokeRect(lay.x[u], lay.y[u], W, H);
      if (diff) this.diffMark(u, diff);
      if (H * k >= 6 || sel) {
        ctx.fillStyle = "#0f172a";
        const label = model.nodeName[u];
        if (H * k >= 10) ctx.fillText(label, lay.x[u] + 10, lay.y[u] + H / 2, W - 14);
        else ctx.fillText(label, lay.x[u] + W + 6 / k, lay.y[u] + H / 2);
      }
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
