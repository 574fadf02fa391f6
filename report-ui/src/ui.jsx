// Small shared pieces: badges, links to nodes and columns, run status, copy button.
import { useEffect, useState } from "preact/hooks";
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

// The kinds along a path, as one text ("identity › transform › aggregate"): the impact
// panel lists thousands of paths on a heavy column, so each costs two DOM nodes.
export function KindPath({ path }) {
  if (!path || !path.length) return null;
  return <span class="kind-path">{path.map((k) => KIND_LABEL[k] || k).join(" › ")}</span>;
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

// "STAGE_PLAN_ALLTIME_AMOUNT" -> "STAGE_PLAN…ME_AMOUNT": the start and the end of a long name
// stay visible, so names that differ only at the end still look different.
export function middleEllipsis(text, max) {
  if (text.length <= max) return text;
  const tail = Math.ceil((max - 1) / 2);
  const head = max - 1 - tail;
  return text.slice(0, head) + "…" + text.slice(text.length - tail);
}

// `compute()` run in a task of its own after the next frame is painted, again whenever
// `token` changes; null until then. A heavy drawing never blocks the paint of the page (and
// the progress line) that holds it.
export function useDeferred(token, compute) {
  const [done, setDone] = useState(null);
  useEffect(() => {
    if (done && done.token === token) return undefined;
    let id = 0;
    const frame = requestAnimationFrame(() => {
      id = setTimeout(() => setDone({ token, value: compute() }), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(id);
    };
  }, [token]);
  return done && done.token === token ? done.value : null;
}

// The value a generator from `start()` returns, computed in slices of at most SLICE_MS each
// (one task per slice) so the page stays responsive and its progress line painted; null
// until then, and again (restarted) whenever `token` changes.
const SLICE_MS = 25;
export function useSliced(token, start) {
  const [done, setDone] = useState(null);
  useEffect(() => {
    if (done && done.token === token) return undefined;
    const steps = start();
    let id = 0;
    const run = () => {
      const until = performance.now() + SLICE_MS;
      for (;;) {
        const next = steps.next();
        if (next.done) return setDone({ token, value: next.value });
        if (performance.now() >= until) break;
      }
      id = setTimeout(run, 0);
    };
    id = setTimeout(run, 0);
    return () => clearTimeout(id);
  }, [token]);
  return done && done.token === token ? done.value : null;
}

export function Working({ label }) {
  return (
    <div class="working" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> {label}
    </div>
  );
}

export function Deferred({ token, label, children, wrap }) {
  const ready = useDeferred(token, () => true);
  if (ready) return children();
  return wrap ? <div class={wrap}><Working label={label} /></div> : <Working label={label} />;
}

// An http(s) URL is a link that opens outside the report; any other scheme stays text.
export function ExternalUrl({ url }) {
  if (!/^https?:\/\//i.test(url)) return <span class="wrap-anywhere">{url}</span>;
  return (
    <a class="wrap-anywhere" href={url} target="_blank" rel="noopener noreferrer">
      {url}
    </a>
  );
}

const commonPrefix = (a, b) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

// Short forms of `names` (the i-th at most `maxOf(i)` characters) that stay different from
// each other: a middle ellipsis, or, where two names share both the start and the end that
// it would keep, the start, the part where the name differs from its neighbours, and the end
// ("stag…alltime…otal" beside "stag…28day_a…otal").
export function distinctShort(names, maxOf) {
  const n = names.length;
  const prefix = new Int32Array(n);
  const suffix = new Int32Array(n);
  const reversed = names.map((name) => [...name].reverse().join(""));
  for (const [keys, out] of [[names, prefix], [reversed, suffix]]) {
    const order = [...keys.keys()].sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
    for (let i = 0; i + 1 < n; i++) {
      const common = commonPrefix(keys[order[i]], keys[order[i + 1]]);
      out[order[i]] = Math.max(out[order[i]], common);
      out[order[i + 1]] = Math.max(out[order[i + 1]], common);
    }
  }
  return names.map((name, i) => {
    const max = maxOf(i);
    if (name.length <= max) return name;
    const tail = Math.ceil((max - 1) / 2);
    const head = max - 1 - tail;
    if (prefix[i] < head || suffix[i] < tail) return middleEllipsis(name, max);
    const ends = Math.max(2, Math.floor((max - 2) / 4));
    const room = Math.max(1, max - 2 * ends - 2);
    const from = Math.min(Math.max(prefix[i] - 1, ends), name.length - ends - room);
    const gapBefore = from > ends ? "…" : "";
    const gapAfter = from + room < name.length - ends ? "…" : "";
    return name.slice(0, ends) + gapBefore + name.slice(from, from + room) + gapAfter + name.slice(name.length - ends);
  });
}
