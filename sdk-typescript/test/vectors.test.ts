// Every vector in schema/vectors gets its expected verdict from the generated TypeScript
// validators (strict scanner included), exactly as from Go's oracle and Python.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { checkJSON, parseStrict, SCHEMA_TYPE_NAMES, StrictJSONError, validate } from "../src/generated/index.js";

// dist/test/vectors.test.js -> repository root
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const vectorsDir = join(root, "schema", "vectors");

function verdict(typeName: string, raw: Uint8Array): [boolean, string] {
  let text: string;
  try {
    // ignoreBOM keeps a byte order mark in the text, so the scanner refuses it as Go and Python do.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(raw);
  } catch (err) {
    return [false, "invalid UTF-8: " + String(err)];
  }
  const errs = checkJSON(typeName, text);
  return [errs.length === 0, errs.join("; ")];
}

test("vectors agree with the oracle", () => {
  const wrong: string[] = [];
  let n = 0;
  for (const typeName of readdirSync(vectorsDir)) {
    for (const expected of ["valid", "invalid"]) {
      let files: string[];
      try {
        files = readdirSync(join(vectorsDir, typeName, expected));
      } catch {
        continue;
      }
      for (const f of files.filter((x) => x.endsWith(".json"))) {
        n++;
        const [ok, why] = verdict(typeName, readFileSync(join(vectorsDir, typeName, expected, f)));
        if (ok !== (expected === "valid")) wrong.push(`${typeName}/${expected}/${f}: got valid=${String(ok)} (${why})`);
      }
    }
  }
  assert.ok(n > 1000, "schema/vectors not found");
  assert.deepEqual(wrong, []);
});

test("every schema type has vectors", () => {
  const dirs = new Set(readdirSync(vectorsDir));
  assert.deepEqual(SCHEMA_TYPE_NAMES.filter((t) => !dirs.has(t)), []);
});

test("duplicate keys and lone surrogates are refused by the scanner", () => {
  assert.throws(() => parseStrict('{"a": 1, "a": 2}'), StrictJSONError);
  assert.throws(() => parseStrict('"\\ud83d"'), StrictJSONError);
  assert.throws(() => parseStrict('{"__proto__": 1, "__proto__": 2}'), StrictJSONError);
  assert.equal(parseStrict('"\\ud83d\\ude00"'), "😀");
});

test("a parsed __proto__ key is data, not a prototype", () => {
  const v = parseStrict('{"__proto__": {"x": 1}}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.deepEqual(Object.keys(v), ["__proto__"]);
});

test("1.0 is refused as an integer only with lexical context", () => {
  assert.notDeepEqual(checkJSON("RequestID", "1.0"), []);
  assert.deepEqual(checkJSON("RequestID", "1"), []);
  // JSON.parse loses the distinction; validate() without context accepts it.
  assert.deepEqual(validate("RequestID", JSON.parse("1.0")), []);
});
