// Small shared pieces: badges, links to nodes and columns, run status, copy button.
import { useState } from "preact/hooks";
import { href } from "./route.js";
import { TYPE_COLORS } from "./overview.js";

export const KIND_LABEL = {
  identity: "identity",
  transform: "transform",
  aggregate: "aggregate",
  join: "join",
  filter: "filter",
  group_by: "group by",
  window: "window",
  sort: "sort",
  distinct: "distinct",
};

export function TypeBadge({ type }) {
  return <span class={`badge type type-${type}`}>{type}</span>;
}

export function TypeDot({ type }) {
  return <span class="dot" style={{ background: TYPE_COLORS[type] || "#64748b" }} />;
}

export function KindBadge({ kind }) {
  if (!kind) return null;
  return <span class={`badge kind kind-${kind}`}>{KIND_LABEL[kind] || kind}</span>;
}

export function KindPath({ path }) {
  if (!path || !path.length) return null;
  return (
    <span class="kind-path">
      {path.map((k, i) => (
        <span key={i} class={`step kind-${k}`}>{KIND_LABEL[k] || k}</span>
      ))}
    </span>
  );
}

export function NodeLink({ model, node, children }) {
  return (
    <a class="node-link" href={href("node", model.nodeId[node])}>
      <TypeDot type={model.nodeType[node]} />
      {children || model.nodeName[node]}
    </a>
  );
}

export function ColumnLink({ model, col, full = true }) {
  const node = model.colNode[col];
  return (
    <a class="col-link" href={href("column", model.nodeId[node], model.colName[col])}>
      {full && <span class="muted">{model.nodeName[node]}.</span>}
      <span class="col-name">{model.colName[col]}</span>
    </a>
  );
}

export function RunBadge({ run }) {
  if (!run) return null;
  const status = run.status || "unknown";
  const good = /^(success|pass)$/.test(status);
  const bad = /error|fail/.test(status);
  const title = [run.at && `at ${formatTime(run.at)}`, run.invocation && `invocation ${run.invocation}`, run.rows != null && `${run.rows} rows`]
    .filter(Boolean)
    .join(", ");
  return <span class={`badge run ${good ? "ok" : bad ? "bad" : "warn"}`} title={title}>{status}</span>;
}

export function ClassBadge({ value }) {
  if (!value) return null;
  return <span class="badge class-pii" title="classification from the column's meta or tags">{value.toUpperCase()}</span>;
}

export function ChangeBadge({ value }) {
  if (!value) return null;
  const text = String(value).replace(/^renamed_from:/, "renamed from ");
  return <span class="badge change">{text}</span>;
}

export function CopyButton({ text, label = "Copy list" }) {
  const [done, setDone] = useState(false);
  const copy = () => {
    const finish = () => {
      setDone(true);
      setTimeout(() => setDone(false), 1500);
    };
    const fallback = () => {
      const area = document.createElement("textarea");
      area.value = text();
      document.body.appendChild(area);
      area.select();
      try {
        document.execCommand("copy");
      } finally {
        area.remove();
      }
      finish();
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text()).then(finish, fallback);
    else fallback();
  };
  return (
    <button class="btn small" onClick={copy} title="Copy as plain text">
      {done ? "Copied ✓" : label}
    </button>
  );
}

export function Empty({ children }) {
  return <div class="empty">{children}</div>;
}

export function plural(n, word, many) {
  return `${n.toLocaleString()} ${n === 1 ? word : many || word + "s"}`;
}

// "2026-11-30T21:18:10.601127Z" -> "2026-11-30 21:18:10 UTC" (as written when not a timestamp).
export function formatTime(value) {
  if (!value) return "";
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]00:?00)?$/.exec(value);
  return match ? `${match[1]} ${match[2]}${match[4] ? " UTC" : ""}` : value;
}
