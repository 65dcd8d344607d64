// Start-up cost: the modules an extension loads when it imports the SDK. Node's ESM loader
// pays a resolve, an open, a read and a compile for every file, so the module graph is most of
// the SDK's own start (bench/analysis/sdk-bounds.md); type-only modules must stay out of it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");

/** Every module reachable through static import/export-from from entry (compiled JS). */
function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^\s*(?:import|export)\s(?:[^;]*?\sfrom\s)?\s*"(\.[^"]+)"/gms)) {
      visit(join(dirname(file), m[1]!));
    }
  };
  visit(entry);
  return seen;
}

test("importing the SDK loads no type-only module and not the generated re-export index", () => {
  const graph = [...staticGraph(join(SRC, "index.js"))].map((f) => relative(SRC, f));
  assert.ok(graph.includes("connection.js"), "the walk follows the SDK's imports");
  assert.ok(graph.includes(join("generated", "dispatch.js")));
  assert.deepEqual(graph.filter((f) => f === join("generated", "index.js") || f.endsWith(".types.js")), []);
});
