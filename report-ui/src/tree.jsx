// The model tree: folders (as the project lays them out) holding models, sources, seeds,
// snapshots and exposures; large folders show their first entries and a "more" button.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { href } from "./route.js";
import { TypeDot } from "./ui.jsx";
import { naturalCompare } from "./natural.js";

const PAGE = 100;

function buildTree(model) {
  const root = { name: "", path: "", folders: new Map(), nodes: [], count: 0 };
  for (let u = 0; u < model.N; u++) {
    const parts = model.nodeFolder[u].split("/").filter((p) => p && p !== ".");
    let at = root;
    at.count++;
    let path = "";
    for (const part of parts) {
      path = path ? path + "/" + part : part;
      if (!at.folders.has(part)) at.folders.set(part, { name: part, path, folders: new Map(), nodes: [], count: 0 });
      at = at.folders.get(part);
      at.count++;
    }
    at.nodes.push(u);
  }
  const sort = (f) => {
    f.nodes.sort((a, b) => naturalCompare(model.nodeName[a], model.nodeName[b]));
    f.folders = new Map([...f.folders].sort((a, b) => naturalCompare(a[0], b[0])));
    f.folders.forEach(sort);
  };
  sort(root);
  return root;
}

export function Tree({ model, selected }) {
  const tree = useMemo(() => buildTree(model), [model]);
  const [open, setOpen] = useState(() => new Set(tree.folders.size === 1 ? [...tree.folders.values()].map((f) => f.path) : []));
  const [filter, setFilter] = useState("");
  useEffect(() => {
    if (selected < 0) return;
    const parts = model.nodeFolder[selected].split("/").filter((p) => p && p !== ".");
    setOpen((prev) => {
      const next = new Set(prev);
      let path = "";
      for (const p of parts) {
        path = path ? path + "/" + p : p;
        next.add(path);
      }
      return next;
    });
  }, [selected, model]);
  // Bring the selected node's leaf into view once its folders are open.
  const body = useRef(null);
  const scrolled = useRef(-1);
  useEffect(() => {
    if (selected < 0 || scrolled.current === selected || !body.current) return;
    const leaf = body.current.querySelector(".leaf.on");
    if (!leaf) return;
    scrolled.current = selected;
    leaf.scrollIntoView({ block: "center" });
  });
  const toggle = (path) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });
  const needle = filter.trim().toLowerCase();
  const matches = useMemo(() => {
    if (!needle) return null;
    const out = [];
    for (let u = 0; u < model.N && out.length < PAGE; u++) if (model.nodeName[u].toLowerCase().includes(needle)) out.push(u);
    return out;
  }, [needle, model]);
  return (
    <nav class="tree" aria-label="Model tree">
      <div class="tree-head">
        <input class="tree-filter" type="search" placeholder="Filter the tree" aria-label="Filter the tree" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      </div>
      <div class="tree-body" ref={body}>
        {matches ? (
          matches.length ? (
            matches.map((u) => <Leaf key={u} model={model} node={u} selected={selected} depth={0} />)
          ) : (
            <div class="tree-none">No node matches</div>
          )
        ) : (
          [...tree.folders.values()].map((f) => <Folder key={f.path} model={model} folder={f} open={open} toggle={toggle} selected={selected} depth={0} />).concat(
            tree.nodes.map((u) => <Leaf key={u} model={model} node={u} selected={selected} depth={0} />),
          )
        )}
      </div>
    </nav>
  );
}

const AROUND = 10;

function Folder({ model, folder, open, toggle, selected, depth }) {
  const isOpen = open.has(folder.path);
  const [shown, setShown] = useState(PAGE);
  // Subfolders then entries, a page at a time (a folder may hold thousands of either); the
  // selected node, or the subfolder that holds it, is shown with a few entries around it.
  const folders = [...folder.folders.values()];
  const total = folders.length + folder.nodes.length;
  let target = -1;
  if (isOpen && selected >= 0) {
    const at = model.nodeFolder[selected].split("/").filter((p) => p && p !== ".").join("/");
    const sub = folders.findIndex((f) => at === f.path || at.startsWith(f.path + "/"));
    const leaf = folder.nodes.indexOf(selected);
    target = sub >= 0 ? sub : leaf >= 0 ? folders.length + leaf : -1;
  }
  const ranges = [[0, Math.min(shown, total)]];
  if (target >= shown) ranges.push([Math.max(shown, target - AROUND), Math.min(total, target + AROUND + 1)]);
  const entry = (i) =>
    i < folders.length ? (
      <Folder key={folders[i].path} model={model} folder={folders[i]} open={open} toggle={toggle} selected={selected} depth={depth + 1} />
    ) : (
      <Leaf key={folder.nodes[i - folders.length]} model={model} node={folder.nodes[i - folders.length]} selected={selected} depth={depth + 1} />
    );
  const more = (from, to, key) => (
    <button key={key} class="more" style={{ paddingLeft: 22 + (depth + 1) * 14 + "px" }} onClick={() => setShown(Math.max(shown + PAGE * 5, to))}>
      {(to - from).toLocaleString()} more…
    </button>
  );
  const body = [];
  ranges.forEach(([from, to], r) => {
    if (r > 0 && from > ranges[r - 1][1]) body.push(more(ranges[r - 1][1], from, "gap"));
    for (let i = from; i < to; i++) body.push(entry(i));
  });
  const end = ranges[ranges.length - 1][1];
  if (end < total) body.push(more(end, total, "end"));
  return (
    <div class="folder">
      <button class="folder-row" style={{ paddingLeft: 8 + depth * 14 + "px" }} onClick={() => toggle(folder.path)} aria-expanded={isOpen ? "true" : "false"}>
        <span class={`caret ${isOpen ? "open" : ""}`} aria-hidden="true">▸</span>
        <span class="folder-name">{folder.name}</span>
        <span class="count">{folder.count.toLocaleString()}</span>
      </button>
      {isOpen && <div>{body}</div>}
    </div>
  );
}

function Leaf({ model, node, selected, depth }) {
  const diff = model.diff;
  const id = model.nodeId[node];
  const mark = diff ? (diff.changed.has(id) ? "changed" : diff.impactedModels.has(id) ? "impacted" : "") : "";
  return (
    <a class={`leaf ${node === selected ? "on" : ""} ${mark}`} aria-current={node === selected ? "page" : undefined} style={{ paddingLeft: 22 + depth * 14 + "px" }} href={href("node", id)} title={id}>
      <TypeDot type={model.nodeType[node]} />
      <span class="leaf-name">{model.nodeName[node]}</span>
      {mark && <span class={`mark ${mark}`} />}
    </a>
  );
}
