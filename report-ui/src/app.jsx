// The page: a header with the search palette and the views, the model tree, and the view
// the URL fragment names.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { go, href, useRoute } from "./route.js";
import { searchIndex } from "./search.js";
import { TypeBadge, TypeDot } from "./ui.jsx";
import { Tree } from "./tree.jsx";
import { OverviewView } from "./overview-view.jsx";
import { NodePage } from "./node-page.jsx";
import { ColumnView } from "./column-view.jsx";
import { CoveragePage } from "./coverage.jsx";
import { DiffPage } from "./diff.jsx";
import { columnIndex } from "./data.js";

export function App({ model }) {
  const route = useRoute();
  const [treeOpen, setTreeOpen] = useState(true);
  const index = useMemo(() => searchIndex(model), [model]);
  useEffect(() => {
    // Prepare the search index while the user looks at the first screen.
    const id = setTimeout(() => index.prepare(), 50);
    return () => clearTimeout(id);
  }, [index]);
  const view = route.view || (model.diff ? "diff" : "overview");
  useEffect(() => {
    document.title = `${model.meta.title} · dbt-lineage`;
  }, [model]);
  let body;
  let selectedNode = -1;
  if (view === "node" || view === "column" || view === "exposure") {
    const node = model.byId.get(route.args[0]);
    selectedNode = node ?? -1;
    if (node === undefined) body = <NotFound text={`No node ${route.args[0]} in this report.`} />;
    else if (view === "column") {
      const col = columnIndex(model, node, route.args[1] || "");
      body = col < 0 ? <NotFound text={`No column ${route.args[1]} in ${route.args[0]}.`} /> : <ColumnView model={model} col={col} />;
    } else body = <NodePage model={model} node={node} column={route.args[1]} />;
  } else if (view === "coverage") body = <CoveragePage model={model} />;
  else if (view === "diff" && model.diff) body = <DiffPage model={model} nodeId={route.args[0]} />;
  else body = <OverviewView model={model} selected={model.byId.get(route.args[0]) ?? -1} />;
  return (
    <div class="shell">
      <header class="top">
        <button class="tree-toggle" onClick={() => setTreeOpen(!treeOpen)} title={treeOpen ? "Hide the model tree" : "Show the model tree"} aria-label="Toggle the model tree">
          ☰
        </button>
        <a class="brand" href={href("overview")} title="dbt-lineage report">
          <span class="logo">◆</span>
          <span class="brand-text">
            <b>{model.meta.title}</b>
            <small>
              {model.meta.adapter || "dbt"} · {counts(model)}
            </small>
          </span>
        </a>
        <SearchBox model={model} index={index} />
        <nav class="tabs">
          <a class={view === "overview" ? "on" : ""} href={href("overview")}>Overview</a>
          <a class={view === "column" ? "on" : ""} href={firstColumnLink(model, selectedNode)}>Columns</a>
          <a class={view === "coverage" ? "on" : ""} href={href("coverage")}>Coverage</a>
          {model.diff && (
            <a class={`diff-tab ${view === "diff" ? "on" : ""}`} href={href("diff")}>
              Diff <span class={`verdict-dot v-${model.diff.doc.verdict}`} />
            </a>
          )}
        </nav>
      </header>
      <div class="main">
        {treeOpen && <Tree model={model} selected={selectedNode} />}
        <main class="view">{body}</main>
      </div>
    </div>
  );
}

function counts(model) {
  const by = {};
  for (const t of model.nodeType) by[t] = (by[t] || 0) + 1;
  const parts = [];
  if (by.model) parts.push(`${by.model.toLocaleString()} models`);
  if (by.source) parts.push(`${by.source.toLocaleString()} sources`);
  parts.push(`${model.C.toLocaleString()} columns`);
  if (by.exposure) parts.push(`${by.exposure} exposures`);
  return parts.join(" · ");
}

function firstColumnLink(model, node) {
  let n = node;
  if (n < 0 || model.colStart[n] === model.colStart[n + 1]) {
    n = model.nodeType.findIndex((t, i) => t === "model" && model.colStart[i] < model.colStart[i + 1]);
  }
  if (n < 0) return href("overview");
  return href("column", model.nodeId[n], model.colName[model.colStart[n]]);
}

function NotFound({ text }) {
  return (
    <div class="page">
      <div class="empty">{text}</div>
    </div>
  );
}

function SearchBox({ model, index }) {
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef(null);
  const results = useMemo(() => index.search(query), [query, index]);
  useEffect(() => {
    const onKey = (e) => {
      const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement && document.activeElement.tagName);
      if ((e.key === "k" && (e.ctrlKey || e.metaKey)) || (e.key === "/" && !typing)) {
        e.preventDefault();
        input.current.focus();
        input.current.select();
        setOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const choose = (item) => {
    if (!item) return;
    setOpen(false);
    input.current.blur();
    if (item.col !== undefined) go("column", model.nodeId[item.node], model.colName[item.col]);
    else go("node", model.nodeId[item.node]);
  };
  const onKeyDown = (e) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, results.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === "Enter") {
      e.preventDefault();
      choose(results[active]);
    } else if (e.key === "Escape") {
      setOpen(false);
      input.current.blur();
    }
  };
  return (
    <div class="search">
      <span class="search-icon">⌕</span>
      <input
        ref={input}
        type="search"
        placeholder="Search models, sources, exposures, columns…"
        aria-label="Search"
        value={query}
        autocomplete="off"
        spellcheck={false}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
      />
      <kbd class="search-kbd">/</kbd>
      {open && query.trim() && (
        <ul class="results" role="listbox">
          {results.length === 0 && <li class="none">No match for “{query}”</li>}
          {results.map((item, i) => (
            <li
              key={(item.col ?? -1) + ":" + item.node}
              class={`result ${i === active ? "active" : ""}`}
              role="option"
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(item);
              }}
              onMouseEnter={() => setActive(i)}
            >
              {item.col !== undefined ? (
                <>
                  <span class="badge type type-column">column</span>
                  <span class="result-label">
                    <span class="muted">{model.nodeName[item.node]}.</span>
                    <b>{model.colName[item.col]}</b>
                  </span>
                  <span class="result-side">{model.S[model.colRaw.type[item.col]]}</span>
                </>
              ) : (
                <>
                  <TypeBadge type={model.nodeType[item.node]} />
                  <span class="result-label">
                    <TypeDot type={model.nodeType[item.node]} />
                    <b>{model.nodeName[item.node]}</b>
                  </span>
                  <span class="result-side">{model.nodeFolder[item.node]}</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
