// The page: a header with the search palette and the views, the model tree, and the view
// the URL fragment names.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { go, href, useRoute } from "./route.js";
import { searchIndex } from "./search.js";
import { SearchBox } from "./search-box.jsx";
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
  const main = useRef(null);
  // A new page starts at its top (a deep link to a column then scrolls to its row).
  useLayoutEffect(() => {
    if (main.current) main.current.scrollTop = 0;
  }, [route]);
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
      <a class="skip-link" href="#main-view" onClick={skipToMain}>Skip to the main view</a>
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
        <main class="view" id="main-view" tabIndex={-1} ref={main}>{body}</main>
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

// The skip link must not change the fragment: the fragment is the route.
function skipToMain(e) {
  e.preventDefault();
  const target = document.getElementById("main-view");
  const first = target && target.querySelector("[data-skip-target], a[href], button, input, select, [tabindex='0']");
  (first || target).focus();
}

// The Columns tab: the selected node's first column, else the first model of the root
// project (not of an installed package) that has columns.
function firstColumnLink(model, node) {
  let n = node;
  if (n < 0 || model.colStart[n] === model.colStart[n + 1]) {
    const hasColumns = (i) => model.nodeType[i] === "model" && model.colStart[i] < model.colStart[i + 1];
    const root = model.meta.project;
    n = model.nodeType.findIndex((t, i) => hasColumns(i) && (model.nodePackage[i] === root || !model.nodePackage[i]));
    if (n < 0) n = model.nodeType.findIndex((t, i) => hasColumns(i));
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
