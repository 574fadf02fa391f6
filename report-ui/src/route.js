// Deep links: the URL fragment names the view and the selection, e.g.
// #/column/model.shop.orders/amount, #/node/model.shop.orders, #/coverage, #/diff.
import { useEffect, useState } from "preact/hooks";

export function parseRoute(hash) {
  const parts = hash.replace(/^#\/?/, "").split("/").map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  const [view = "", ...rest] = parts;
  return { view: view || "", args: rest };
}

export function href(view, ...args) {
  return "#/" + [view, ...args.map((a) => encodeURIComponent(a).replace(/%2E/g, "."))].join("/");
}

export function go(view, ...args) {
  location.hash = href(view, ...args);
}

export function useRoute() {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = () => setRoute(parseRoute(location.hash));
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  return route;
}
