// Just enough TOML for the examples' extension.toml files (tables, strings, booleans, string
// arrays over several lines), so tests send each example the manifest it actually ships.
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
      table = {};
      root[header[1]!] = table;
      continue;
    }
    while ((line.match(/\[/g)?.length ?? 0) > (line.match(/\]/g)?.length ?? 0)) line += " " + lines[++i]!.trim();
    const m = /^([A-Za-z_]+)\s*=\s*(.+)$/.exec(line);
    if (!m) throw new Error(`${path}:${i + 1}: cannot parse ${JSON.stringify(line)}`);
    table[m[1]!] = JSON.parse(m[2]!.replace(/,\s*\]/, "]")) as JsonValue;
  }
  return root;
}
