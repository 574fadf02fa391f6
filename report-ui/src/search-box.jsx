// The search palette in the header: a combobox over models, sources, exposures and columns.
// `/` or Ctrl+K (Cmd+K) opens it empty; Enter opens the active result; the list pages
// through long answers; the box empties whenever the page navigates.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { go } from "./route.js";
import { TypeBadge, TypeDot } from "./ui.jsx";

const PAGE = 40;

export function SearchBox({ model, index }) {
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [shown, setShown] = useState(PAGE);
  const input = useRef(null);
  const list = useRef(null);
  const closing = useRef(0);
  const results = useMemo(() => index.search(query), [query, index]);
  const reset = (text) => {
    // The DOM value too: a value the browser changed on its own (Esc in a search field)
    // would otherwise survive a state that did not change.
    if (input.current) input.current.value = text;
    setQuery(text);
    setActive(0);
    setShown(PAGE);
  };
  useEffect(() => {
    const onKey = (e) => {
      const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement && document.activeElement.tagName);
      if ((e.key.toLowerCase() === "k" && (e.ctrlKey || e.metaKey)) || (e.key === "/" && !typing)) {
        e.preventDefault();
        reset("");
        input.current.focus();
        setOpen(true);
      }
    };
    const onNavigate = () => {
      reset("");
      setOpen(false);
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("hashchange", onNavigate);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("hashchange", onNavigate);
    };
  }, []);
  useEffect(() => {
    const el = list.current && list.current.querySelector(".result.active");
    if (el) el.scrollIntoView({ block: "nearest" });
  }, [active, open]);
  const visible = results.slice(0, shown);
  const more = results.length - visible.length;
  const choose = (i) => {
    if (i === visible.length && more > 0) {
      setShown(shown + PAGE);
      return;
    }
    const item = visible[i];
    if (!item) return;
    setOpen(false);
    input.current.blur();
    if (item.col !== undefined) go("column", model.nodeId[item.node], model.colName[item.col]);
    else go("node", model.nodeId[item.node]);
  };
  const last = visible.length + (more > 0 ? 1 : 0) - 1;
  const onKeyDown = (e) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, last));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === "Enter") {
      e.preventDefault();
      choose(active);
    } else if (e.key === "Escape") {
      e.preventDefault();
      setOpen(false);
      input.current.blur();
    }
  };
  const expanded = open && !!query.trim();
  const optionId = (i) => `search-option-${i}`;
  return (
    <div class="search" role="search">
      <span class="search-icon" aria-hidden="true">⌕</span>
      <input
        ref={input}
        type="search"
        role="combobox"
        aria-label="Search"
        aria-autocomplete="list"
        aria-expanded={expanded ? "true" : "false"}
        aria-controls="search-results"
        aria-activedescendant={expanded && active <= last ? optionId(active) : undefined}
        placeholder="Search models, sources, exposures, columns…"
        value={query}
        autocomplete="off"
        spellcheck={false}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
          setShown(PAGE);
          setOpen(true);
        }}
        onFocus={() => {
          clearTimeout(closing.current);
          setOpen(true);
        }}
        onBlur={() => {
          closing.current = setTimeout(() => setOpen(false), 150);
        }}
        onKeyDown={onKeyDown}
      />
      <kbd class="search-kbd" aria-hidden="true">/</kbd>
      <ul class="results" role="listbox" id="search-results" aria-label="Search results" ref={list} hidden={!expanded}>
        {expanded && results.length === 0 && <li class="none" role="option" aria-selected="false" aria-disabled="true">No match for “{query}”</li>}
        {expanded &&
          visible.map((item, i) => (
            <li
              key={(item.col ?? -1) + ":" + item.node}
              id={optionId(i)}
              class={`result ${i === active ? "active" : ""}`}
              role="option"
              aria-selected={i === active ? "true" : "false"}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(i);
              }}
              onMouseEnter={() => setActive(i)}
            >
              <ResultBody model={model} item={item} />
            </li>
          ))}
        {expanded && more > 0 && (
          <li
            id={optionId(visible.length)}
            class={`result more-results ${active === visible.length ? "active" : ""}`}
            role="option"
            aria-selected={active === visible.length ? "true" : "false"}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(visible.length);
            }}
            onMouseEnter={() => setActive(visible.length)}
          >
            Show {Math.min(PAGE, more)} more of {more.toLocaleString()}…
          </li>
        )}
      </ul>
    </div>
  );
}

function ResultBody({ model, item }) {
  if (item.col !== undefined) {
    return (
      <>
        <span class="badge type type-column">column</span>
        <span class="result-label">
          <span class="muted">{model.nodeName[item.node]}.</span>
          <b>{model.colName[item.col]}</b>
        </span>
        <span class="result-side">{model.S[model.colRaw.type[item.col]]}</span>
      </>
    );
  }
  return (
    <>
      <TypeBadge type={model.nodeType[item.node]} />
      <span class="result-label">
        <TypeDot type={model.nodeType[item.node]} />
        <b>{model.nodeName[item.node]}</b>
      </span>
      <span class="result-side">{model.nodeFolder[item.node]}</span>
    </>
  );
}
