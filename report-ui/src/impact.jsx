// The impact panel: every column, model and exposure that changes if the target changes,
// grouped by distance, with the kind path, owners, exposure types and run facts.
import { useMemo, useState } from "preact/hooks";
import { walkSteps } from "./walk.js";
import { nodeInfo } from "./data.js";
import { ColumnLink, CopyButton, ExternalUrl, Empty, KindBadge, KindPath, NodeLink, RunBadge, TypeBadge, Working, plural, useSliced } from "./ui.jsx";

const PAGE = 20;
const EXPOSURE_ICONS = { dashboard: "▦", notebook: "✎", ml: "⚙", application: "▣", analysis: "∑" };

export function ImpactPanel({ model, target, rows }) {
  // With row-set edges a busy column's walk reaches most of a large project: it runs in
  // slices, with a progress line, instead of one long task.
  const settings = useMemo(() => ({ model, target, rows }), [model, target.col, target.node, rows]);
  const result = useSliced(settings, () => walkSteps(model, target, { rows }));
  const [shownModels, setShownModels] = useState(PAGE);
  if (!result) return <Working label="Computing the impact…" />;
  const byDistance = new Map();
  for (const c of result.columns) {
    if (!byDistance.has(c.distance)) byDistance.set(c.distance, []);
    byDistance.get(c.distance).push(c);
  }
  const name = target.col !== undefined ? `${model.nodeName[model.colNode[target.col]]}.${model.colName[target.col]}` : model.nodeName[target.node];
  const text = () => impactText(model, name, result, rows);
  const runs = model.runs;
  return (
    <section class="impact" data-testid="impact">
      <div class="impact-head">
        <h3>Impact</h3>
        <CopyButton text={text} />
      </div>
      <p class="muted small">
        If <b>{name}</b> changes: {plural(result.columns.length, "column")} in {plural(result.relations.length, "model")},{" "}
        {plural(result.exposures.length, "exposure")}.{" "}
        {rows ? "Row-set edges (join, filter, group by, sort, distinct) included." : "Direct and window edges; turn on row-set edges to add what joins and filters decide."}
      </p>
      {result.exposures.length > 0 && (
        <div class="impact-group">
          <h4>Exposures</h4>
          {result.exposures.map((e) => {
            const info = nodeInfo(model, e.node);
            const x = info.exposure || {};
            return (
              <div class="exposure-card" key={e.node} data-node={model.nodeId[e.node]}>
                <span class="exp-icon">{EXPOSURE_ICONS[x.type] || "◎"}</span>
                <div>
                  <NodeLink model={model} node={e.node} />
                  <div class="small muted">
                    <span class={`badge exp-${x.type}`}>{x.type || "exposure"}</span>
                    {x.maturity && <span class="badge">{x.maturity}</span>}
                    {x.owner && <span> owner {x.owner}</span>}
                    {x.email && <span class="mono"> {x.email}</span>}
                    <span> · {plural(e.distance, "hop")}</span>
                  </div>
                  {x.url && <div class="small"><ExternalUrl url={x.url} /></div>}
                </div>
              </div>
            );
          })}
        </div>
      )}
      {result.relations.length > 0 && (
        <div class="impact-group">
          <h4>Models</h4>
          <table class="grid compact">
            <tbody>
              {result.relations.slice(0, shownModels).map((r) => {
                const info = nodeInfo(model, r.node);
                return (
                  <tr key={r.node} data-node={model.nodeId[r.node]}>
                    <td class="num">{r.distance}</td>
                    <td><NodeLink model={model} node={r.node} /></td>
                    <td><TypeBadge type={info.type} /></td>
                    <td class="small muted">{info.owner}</td>
                    <td>{runs && <RunBadge run={runs.get(r.node)} />}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <More count={result.relations.length - shownModels} onClick={() => setShownModels(shownModels + PAGE * 4)} />
        </div>
      )}
      {[...byDistance].map(([d, list]) => (
        <Hop key={d} model={model} d={d} list={list} runs={runs} />
      ))}
      {result.columns.length === 0 && result.exposures.length === 0 && <Empty>Nothing downstream reads this.</Empty>}
    </section>
  );
}

// A long list shows a page at a time: the heaviest column reaches thousands of columns.
function More({ count, onClick }) {
  if (count <= 0) return null;
  return (
    <button class="btn small more-button" onClick={onClick}>
      Show {Math.min(count, PAGE * 4)} more of {count.toLocaleString()}
    </button>
  );
}

function Hop({ model, d, list, runs }) {
  const [shown, setShown] = useState(PAGE);
  return (
        <div class="impact-group">
          <h4>
            {plural(d, "hop")} <span class="count">{list.length}</span>
          </h4>
          <ul class="impact-list">
            {list.slice(0, shown).map((c) => (
              <li key={c.col} data-node={model.nodeId[model.colNode[c.col]]} data-col={model.colName[c.col]} data-kind={c.kind} data-distance={c.distance}>
                <ColumnLink model={model} col={c.col} />
                <KindBadge kind={c.kind} />
                {(c.path.length > 1 || runs) && (
                  <div class="sub">
                    {c.path.length > 1 && <KindPath path={c.path} />}
                    {runs && <RunBadge run={runs.get(model.colNode[c.col])} />}
                  </div>
                )}
              </li>
            ))}
          </ul>
          <More count={list.length - shown} onClick={() => setShown(shown + PAGE * 4)} />
        </div>
  );
}

export function impactText(model, name, result, rows) {
  const lines = [`Impact of ${name} (${rows ? "direct, window and row-set edges" : "direct and window edges"})`];
  lines.push("", "Columns:");
  for (const c of result.columns) {
    const node = model.colNode[c.col];
    lines.push(`  ${c.distance}  ${model.nodeId[node]}.${model.colName[c.col]}  ${c.kind}  [${c.path.join(" > ")}]`);
  }
  lines.push("", "Models:");
  for (const r of result.relations) lines.push(`  ${r.distance}  ${model.nodeId[r.node]}`);
  lines.push("", "Exposures:");
  for (const e of result.exposures) {
    const x = model.exposure.get(e.node) || {};
    lines.push(`  ${e.distance}  ${model.nodeId[e.node]}  ${x.type || ""}  ${x.owner || ""} ${x.email ? "<" + x.email + ">" : ""}`.trimEnd());
  }
  return lines.join("\n") + "\n";
}
