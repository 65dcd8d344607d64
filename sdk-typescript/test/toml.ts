// Just enough TOML for the examples' extension.toml files (tables, dotted tables, strings, booleans, string
// arrays over several lines, arrays of inline tables as the [certify] table writes them), so
// tests send each example the manifest it actually ships.
import { readFileSync } from "node:fs";
import type { JsonObject, JsonValue } from "../src/index.js";

export function readManifest(path: string): JsonObject {
  const root: JsonObject = {};
  let table = root;
  const lines = readFileSync(path, "utf8").split("\n");
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.replace(/#.*$/, "").trim();
    if (line === "") continue;
    const header = /^\[([a-z_.]+)\]$/.exec(line);
    if (header) {
      // A dotted header ([settings.properties.note]) nests, creating the tables on its way.
      table = root;
      for (const part of header[1]!.split(".")) {
        const next = table[part];
        if (next === undefined) table[part] = {};
        else if (next === null || typeof next !== "object" || Array.isArray(next)) throw new Error(`${path}:${i + 1}: [${header[1]}] redefines ${part}`);
        table = table[part] as JsonObject;
      }
      continue;
    }
    while ((line.match(/\[/g)?.length ?? 0) > (line.match(/\]/g)?.length ?? 0)) line += " " + lines[++i]!.trim();
    const m = /^([A-Za-z_]+)\s*=\s*(.+)$/.exec(line);
    if (!m) throw new Error(`${path}:${i + 1}: cannot parse ${JSON.stringify(line)}`);
    // Inline tables: { key = value, ... } becomes { "key": value, ... }.
    const json = m[2]!.replace(/([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*=/g, '$1"$2":').replace(/,\s*\]/g, "]");
    table[m[1]!] = JSON.parse(json) as JsonValue;
  }
  return root;
}
