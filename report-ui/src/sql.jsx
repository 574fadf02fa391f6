// Compiled SQL as text, with line numbers, light keyword colouring, and marks over the
// expressions of the selected column. Everything is rendered as text nodes.
const KEYWORDS =
  /\b(select|from|where|join|left|right|inner|outer|full|cross|on|using|group|by|order|having|qualify|limit|with|as|and|or|not|in|is|null|case|when|then|else|end|union|all|distinct|over|partition|rows|between|cast|coalesce|sum|count|avg|min|max|lateral|exists|except|intersect|true|false|asc|desc)\b/gi;

function marksFor(sql, needles) {
  const lower = sql.toLowerCase();
  const ranges = [];
  for (const needle of needles) {
    if (!needle || needle.length < 2) continue;
    const n = needle.toLowerCase();
    let at = lower.indexOf(n);
    let guard = 0;
    while (at >= 0 && guard++ < 200) {
      ranges.push([at, at + n.length]);
      at = lower.indexOf(n, at + n.length);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push(r.slice());
  }
  return merged;
}

function colour(text, key) {
  const out = [];
  let last = 0;
  text.replace(KEYWORDS, (match, _w, offset) => {
    if (offset > last) out.push(text.slice(last, offset));
    out.push(<span key={key + ":" + offset} class="kw">{match}</span>);
    last = offset + match.length;
    return match;
  });
  if (last < text.length) out.push(text.slice(last));
  return out;
}

// Needles for a column: the expressions of its direct edges, and "as <name>".
export function columnNeedles(model, col) {
  if (col < 0) return [];
  const needles = new Set();
  for (let i = model.in.start[col]; i < model.in.start[col + 1]; i++) {
    const expr = model.S[model.edge.expr[model.in.edge[i]]];
    if (expr && expr.length <= 2000) needles.add(expr);
  }
  const name = model.colName[col];
  needles.add(`as ${name}`);
  needles.add(`as "${name}"`);
  return [...needles];
}

export function SqlBlock({ sql, needles = [], marked = null }) {
  if (!sql) return <div class="empty small">No compiled SQL for this node (seeds and sources have none; run dbt compile for models).</div>;
  const ranges = marked || marksFor(sql, needles);
  const parts = [];
  let pos = 0;
  ranges.forEach(([a, b], i) => {
    if (a > pos) parts.push(...colour(sql.slice(pos, a), "p" + i));
    parts.push(<mark key={"m" + i}>{sql.slice(a, b)}</mark>);
    pos = b;
  });
  if (pos < sql.length) parts.push(...colour(sql.slice(pos), "end"));
  const lines = sql.split("\n").length;
  return (
    <div class="sql" tabIndex={0} role="region" aria-label="Compiled SQL">
      <pre class="gutter" aria-hidden="true">{Array.from({ length: lines }, (_, i) => i + 1).join("\n")}</pre>
      <pre class="code">{parts}</pre>
    </div>
  );
}
