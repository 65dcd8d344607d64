// Rendering of values the extensions send: JSON as a collapsible tree, and a tool result
// as its parts (text, images and audio by artifact reference), structured content as a
// tree, is_error and metadata marked.

import { h } from "./dom.js";
import { token, type JSONValue } from "./api.js";

// jsonTree renders v; objects and arrays deeper than open levels start folded.
export function jsonTree(v: JSONValue | undefined, open = 2): HTMLElement {
  if (v === null || v === undefined || typeof v !== "object") {
    return h("span", { class: "j-" + (v === null || v === undefined ? "null" : typeof v) }, JSON.stringify(v ?? null));
  }
  const entries: [string, JSONValue][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
  const summary = Array.isArray(v) ? `[${entries.length}]` : `{${entries.length}}`;
  const d = h("details", { class: "j-node" }, h("summary", {}, summary));
  d.open = open > 0;
  const ul = h("ul", {});
  for (const [k, x] of entries) ul.appendChild(h("li", {}, h("span", { class: "j-key" }, k), ": ", jsonTree(x, open - 1)));
  d.appendChild(ul);
  return d;
}

export function renderResult(result: any): HTMLElement {
  const box = h("div", { class: "result" + (result?.is_error ? " is-error" : "") });
  if (result?.is_error) box.appendChild(h("div", { class: "badge error" }, "is_error"));
  const content: any[] = Array.isArray(result?.content) ? result.content : [];
  for (const part of content) {
    switch (part?.type) {
      case "text":
        box.appendChild(h("pre", { class: "text-part" }, String(part.text ?? "")));
        break;
      case "image":
        // Previewed from the host's artifact store (images only; the token rides along as
        // on every request), with the reference beside it.
        box.appendChild(h("figure", { class: "artifact-image" },
          h("img", { src: `/api/artifact?id=${encodeURIComponent(String(part.artifact_id))}&token=${encodeURIComponent(token)}`, alt: String(part.alt ?? "") }),
          h("figcaption", {}, "image ", h("code", {}, String(part.artifact_id)), ` (${part.mime_type})`, part.alt ? ` — ${part.alt}` : "")));
        break;
      case "audio":
        box.appendChild(h("div", { class: "artifact-ref" }, `${part.type} `, h("code", {}, String(part.artifact_id)), ` (${part.mime_type})`,
          part.alt ? ` — ${part.alt}` : ""));
        break;
      default:
        box.appendChild(jsonTree(part as JSONValue));
    }
  }
  if (result && "structured_content" in result) {
    box.appendChild(h("div", { class: "section-title" }, "structured_content"));
    box.appendChild(h("div", { class: "structured" }, jsonTree(result.structured_content as JSONValue, 3)));
  }
  for (const k of Object.keys(result ?? {})) {
    if (k !== "content" && k !== "is_error" && k !== "structured_content") {
      box.appendChild(h("div", { class: "section-title" }, k));
      box.appendChild(jsonTree(result[k] as JSONValue, 1));
    }
  }
  if (!result || (typeof result === "object" && !("content" in result))) {
    // A 0.1 result or something else: shown whole.
    box.appendChild(jsonTree(result as JSONValue, 3));
  }
  return box;
}

export function fmtTime(ms: number, origin: number): string {
  const d = ms - origin;
  return (d / 1000).toFixed(3) + "s";
}

export function fmtSize(n: number): string {
  return n < 1024 ? `${n} B` : n < 1 << 20 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / (1 << 20)).toFixed(1)} MiB`;
}
