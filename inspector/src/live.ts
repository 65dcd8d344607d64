// The live strip: questions waiting for an answer, progress bars of the calls in flight,
// notifications and what the broker did with policy and secret requests.

import { api, type Question } from "./api.js";
import { h, replace } from "./dom.js";
import { fmtTime, jsonTree } from "./render.js";
import type { Store } from "./store.js";

export function renderQuestions(el: HTMLElement, store: Store): void {
  const qs = [...store.questions.values()];
  replace(el, ...qs.map(questionCard));
  el.hidden = qs.length === 0;
}

function questionCard(q: Question): HTMLElement {
  const card = h("div", { class: "question" + (q.destructive ? " destructive" : ""), id: `question-${q.id}`, "data-kind": q.kind });
  const answer = async (confirmed: boolean, value: string | null) => {
    card.querySelectorAll("button").forEach((b) => (b.disabled = true));
    try {
      await api.answer(q.id, confirmed, value);
    } catch (e) {
      card.appendChild(h("div", { class: "call-error" }, (e as Error).message));
    }
  };
  if (q.kind === "confirm") {
    card.append(h("div", { class: "q-title" }, `${q.extension} asks to confirm${q.title ? ": " + q.title : ""}`), h("p", {}, q.message ?? ""),
      h("button", { type: "button", class: "primary confirm-yes", onclick: () => answer(true, null) }, "Confirm"), " ",
      h("button", { type: "button", class: "confirm-no", onclick: () => answer(false, null) }, "Deny"));
  } else if (q.options !== undefined && q.options.length > 0) {
    // A choice: one button per option (its description as the tooltip), the free-text
    // field only when the extension allows it.
    const input = h("input", { type: "text", class: "input-value", autocomplete: "off" });
    card.append(h("div", { class: "q-title" }, `${q.extension} asks to choose`), h("p", {}, q.prompt ?? ""),
      h("div", { class: "input-options" }, ...q.options.map((o) =>
        h("button", { type: "button", class: "input-option", "data-value": o.value, title: o.description ?? "", onclick: () => answer(false, o.value) }, o.label))),
      ...(q.allow_free_text ? [input, " ", h("button", { type: "button", class: "primary input-send", onclick: () => answer(false, input.value) }, "Send")] : []), " ",
      h("button", { type: "button", class: "input-cancel", onclick: () => answer(false, null) }, "Cancel"));
  } else {
    const input = h("input", { type: q.secret ? "password" : "text", class: "input-value", autocomplete: "off" });
    card.append(h("div", { class: "q-title" }, `${q.extension} asks for input${q.secret ? " (secret)" : ""}`), h("p", {}, q.prompt ?? ""), input, " ",
      h("button", { type: "button", class: "primary input-send", onclick: () => answer(false, input.value) }, "Send"), " ",
      h("button", { type: "button", class: "input-cancel", onclick: () => answer(false, null) }, "Cancel"));
  }
  return card;
}

export function renderProgress(el: HTMLElement, store: Store): void {
  const rows = [...store.progress.values()].slice(-20).reverse();
  replace(el, rows.length === 0 ? h("p", { class: "muted" }, "No progress yet.") : null, ...rows.map((p) => {
    const pct = p.total ? Math.min(100, Math.round(((p.current ?? 0) / p.total) * 100)) : undefined;
    const bar = h("progress", { max: 100 });
    if (pct !== undefined) bar.value = pct;
    else if (p.done) bar.value = 100;
    return h("div", { class: "progress-row" + (p.done ? " done" : ""), "data-ext": p.ext },
      h("span", { class: "muted" }, `${p.ext} #${p.parent}`), " ", bar, " ",
      h("span", { class: "progress-text" }, pct !== undefined ? `${pct}% ` : "", p.message, p.current !== undefined && p.total !== undefined ? ` (${p.current}/${p.total}${p.unit ? " " + p.unit : ""})` : "",
        p.decoration ? ` [${p.decoration}]` : "", p.done ? " — done" : ""),
      p.output ? h("pre", { class: "output" }, p.output) : null);
  }));
}

export function renderNotices(el: HTMLElement, store: Store): void {
  const origin = store.state?.started_at_ms ?? 0;
  const rows = store.notices.slice(-200).reverse();
  replace(el, rows.length === 0 ? h("p", { class: "muted" }, "Nothing yet.") : null,
    h("ul", { class: "notices" }, ...rows.map((n) => h("li", { class: `notice kind-${n.kind} level-${n.level ?? "info"}` },
      h("span", { class: "time" }, fmtTime(n.at, origin)), " ", h("span", { class: "badge" }, n.kind), " ", h("b", {}, n.ext), " ", n.text))),
    store.answered.length > 0 ? h("div", { class: "section-title" }, "Answered from this page") : null,
    h("ul", { class: "answered" }, ...store.answered.slice(-20).reverse().map((a) => h("li", {}, `${a.question?.extension ?? ""}: `,
      a.question?.message ?? a.question?.prompt ?? a.id, " → ", h("b", {}, a.outcome)))));
}

export function renderBroker(el: HTMLElement, store: Store): void {
  const origin = store.state?.started_at_ms ?? 0;
  const rows = store.broker.slice(-100).reverse();
  replace(el, rows.length === 0 ? h("p", { class: "muted" }, "No policy or secret requests yet.") : null,
    ...rows.map((b) => h("div", { class: "broker-row" }, h("span", { class: "time" }, fmtTime(b.at, origin)), " ", h("b", {}, b.ext), " ", h("code", {}, b.method),
      h("div", { class: "broker-cols" }, h("div", {}, h("div", { class: "section-title" }, "asked"), jsonTree(b.params ?? null, 2)),
        h("div", {}, h("div", { class: "section-title" }, "the broker answered"),
          b.error !== undefined ? jsonTree(b.error, 2) : b.answer !== undefined ? jsonTree(b.answer, 2) : h("span", { class: "muted" }, "pending…"))))));
}
