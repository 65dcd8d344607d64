// A replay's answer: host/replay's Report (groups of lines, each in both runs ' ', only
// recorded '-' or only replayed '+', plus notes) as a diff; anything else as a tree.

import { h } from "./dom.js";
import type { JSONValue } from "./api.js";
import { jsonTree } from "./render.js";

interface Report {
  groups: { label: string; lines: { op: string; text: string }[] }[];
  notes?: string[];
}

function isReport(v: any): v is Report {
  return v !== null && typeof v === "object" && Array.isArray(v.groups);
}

export function renderDiff(v: JSONValue): HTMLElement {
  const report: any = isReport(v) ? v : isReport((v as any)?.report) ? (v as any).report : null;
  if (!report) return jsonTree(v, 4);
  const changed = report.groups.reduce((n: number, g: Report["groups"][number]) => n + g.lines.filter((l) => l.op !== " ").length, 0);
  return h("div", { class: "replay-report" },
    h("div", { class: changed === 0 ? "badge state-ready" : "badge error" }, changed === 0 ? "no difference" : `${changed} frames differ`),
    ...report.groups.map((g: Report["groups"][number]) => h("div", { class: "diff-group" }, h("div", { class: "section-title" }, g.label),
      h("pre", { class: "diff" }, ...g.lines.map((l) => h("span", { class: l.op === "+" ? "add" : l.op === "-" ? "del" : "same" }, `${l.op} ${l.text}\n`))))),
    report.notes?.length ? h("ul", { class: "notes" }, ...report.notes.map((n: string) => h("li", { class: "muted" }, n))) : null);
}
