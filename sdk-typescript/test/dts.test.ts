// The published declarations must not leak `any` into public signatures.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { PKG } from "./helpers.js";

function declarations(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? declarations(join(dir, e.name)) : e.name.endsWith(".d.ts") ? [join(dir, e.name)] : [],
  );
}

it("no .d.ts under dist/src mentions the type any", () => {
  const files = declarations(join(PKG, "dist/src"));
  assert.ok(files.length > 10, "declarations were emitted");
  const offenders: string[] = [];
  for (const file of files) {
    const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    code.split("\n").forEach((line, i) => {
      if (/(?<![\w$"'])any(?![\w$"'])/.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(offenders, []);
});
