// Catalog revisions as a timeline: each revision of the all-extensions catalog with the
// tools it added and removed against the one before.

import { h, replace } from "./dom.js";
import { fmtTime } from "./render.js";
import type { Store } from "./store.js";

export function renderCatalog(el: HTMLElement, store: Store): void {
  const origin = store.state?.started_at_ms ?? 0;
  let prev = new Set<string>();
  const items: HTMLElement[] = [];
  for (const c of store.catalog) {
    const now = new Set(c.tools.map((t) => `${t.extension}:${t.name}`));
    const added = [...now].filter((t) => !prev.has(t));
    const removed = [...prev].filter((t) => !now.has(t));
    items.push(h("li", { class: "catalog-rev" }, h("span", { class: "time" }, fmtTime(c.at, origin)), " ", h("b", {}, `revision ${c.revision}`),
      ` — ${now.size} tools`, added.length ? h("div", { class: "added" }, "+ ", added.join(", ")) : null,
      removed.length ? h("div", { class: "removed" }, "− ", removed.join(", ")) : null));
    prev = now;
  }
  replace(el, items.length === 0 ? h("p", { class: "muted" }, "No catalog yet.") : h("ol", { class: "timeline" }, ...items.reverse()));
}
