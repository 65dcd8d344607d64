// Property-based fuzzing (fast-check) of framing, strict JSON decoding and the generated
// validators, each against a reference: a model of the framing contract, JSON.parse, the
// verdicts of schema/vectors. OCTET_FUZZ_EXAMPLES sets the runs per property (a few hundred
// in the suite, with a fixed seed; `go run mage.go fuzz` runs them at length, seeds afresh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";

import { LineDecoder } from "../src/framing.js";
import { checkJSON, parseStrict, SCHEMA_TYPE_NAMES, StrictJSONError, validate } from "../src/generated/index.js";
import { parseFrame } from "../src/wireparse.js";
import { MAX_JSON_DEPTH } from "../src/generated/limits.js";

const long = process.env["OCTET_FUZZ_EXAMPLES"] !== undefined;
const params: fc.Parameters<unknown> = long
  ? { numRuns: Number(process.env["OCTET_FUZZ_EXAMPLES"]) }
  : { numRuns: 200, seed: 20261201 };
const MAX_DEPTH = MAX_JSON_DEPTH; // levels of arrays and objects; the outermost is 1

// -- framing ---------------------------------------------------------------------------------

type Event = { line: string } | { fault: string };

function decodeAll(chunks: Buffer[], max: number): Event[] {
  const out: Event[] = [];
  const d = new LineDecoder({ line: (t) => out.push({ line: t }), fault: (r) => out.push({ fault: r }) }, max);
  for (const c of chunks) d.push(c);
  d.end();
  return out;
}

/** The contract: whole lines in order, blank ones too; a line over the bound, one not
 * UTF-8, or bytes left without a newline at the end stop reading with a fault. */
function model(data: Buffer, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const nl = data.indexOf(10, start);
    const line = data.subarray(start, nl < 0 ? data.length : nl);
    if (line.length > max) return [...out, "limit"];
    if (nl < 0) return line.length > 0 ? [...out, "partial"] : out;
    if (!isUtf8(line)) return [...out, "utf8"];
    out.push("line:" + line.toString("utf8"));
    start = nl + 1;
  }
}

const kindOf = (e: Event): string =>
  "line" in e ? "line:" + e.line : /exceeds the limit/.test(e.fault) ? "limit" : /UTF-8/.test(e.fault) ? "utf8" : "partial";

const lineBytes = fc.oneof(
  fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b)),
  fc.constantFrom(Buffer.from("{}"), Buffer.from("é😀"), Buffer.from([0xff, 0xc3]), Buffer.alloc(0)),
  fc.integer({ min: 0, max: 300 }).map((n) => Buffer.alloc(n, 0x78)),
);

test("LineDecoder matches the framing model for any split of the input", () => {
  fc.assert(
    fc.property(
      fc.array(lineBytes, { maxLength: 6 }),
      fc.boolean(),
      fc.integer({ min: 0, max: 300 }),
      fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 4 }),
      (lines, trailing, max, sizes) => {
        const data = Buffer.concat([
          ...lines.flatMap((l, i) => (i > 0 ? [Buffer.from("\n"), l.map((b) => (b === 10 ? 32 : b))] : [l.map((b) => (b === 10 ? 32 : b))])),
          Buffer.from(trailing ? "\n" : ""),
        ]);
        const chunks: Buffer[] = [];
        for (let at = 0, i = 0; at < data.length; i++) {
          const n = sizes.length > 0 ? sizes[i % sizes.length]! : data.length;
          chunks.push(data.subarray(at, at + n));
          at += n;
        }
        const got = decodeAll(chunks, max);
        assert.deepEqual(got.map(kindOf), model(data, max));
        for (const e of got) if ("line" in e) assert.ok(Buffer.byteLength(e.line) <= max);
      },
    ),
    params,
  );
});

// -- strict JSON -----------------------------------------------------------------------------

const tokens = fc.constantFrom(
  "{", "}", "[", "]", ",", ":", '"a"', '"a"', "1", "-0", "1.0", "1e400", "1".repeat(310), "true", "null",
  '"\\ud800"', '"\\udc00"', '"\\ud83d\\ude00"', '"\\u00e9"', " ", "\t", "NaN", '"\u0000"', "\ufeff", '"é"',
  "[".repeat(129), "]".repeat(129), '{"a":1,"a":2}', '{"__proto__":1}',
);
const texts = fc.oneof(fc.array(tokens, { maxLength: 12 }).map((t) => t.join("")), fc.string({ maxLength: 30 }));

/** Members in the text (colons outside strings), scanned independently of the decoders. */
function colons(text: string): number {
  let n = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ":") n++;
  }
  return n;
}

/** A strict rule that JSON.parse-valid text breaks, found from JSON.parse's value; or "". */
function refusalReason(text: string, v: unknown): string {
  let keys = 0;
  const walk = (x: unknown, depth: number): string => {
    if (typeof x === "object" && x !== null && depth >= MAX_DEPTH) return "too deep"; // level depth + 1
    if (typeof x === "string" && !isWellFormed(x)) return "lone surrogate";
    if (typeof x === "number" && !Number.isFinite(x)) return "beyond float64";
    if (typeof x !== "object" || x === null) return "";
    for (const [k, y] of Object.entries(x)) {
      if (!Array.isArray(x)) keys++;
      const why = (!Array.isArray(x) && !isWellFormed(k) ? "lone surrogate" : "") || walk(y, depth + 1);
      if (why) return why;
    }
    return "";
  };
  return walk(v, 0) || (keys < colons(text) ? "duplicate key" : "");
}

function isWellFormed(s: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

test("parseStrict decodes what JSON.stringify writes, as JSON.parse does", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
      const text = JSON.stringify(value);
      assert.deepEqual(parseStrict(text), JSON.parse(text));
    }),
    params,
  );
});

test("parseStrict accepts exactly JSON.parse's language minus the strict rules", () => {
  fc.assert(
    fc.property(texts, (text) => {
      let reference: unknown;
      try {
        reference = JSON.parse(text);
      } catch {
        assert.throws(() => parseStrict(text), StrictJSONError, `accepted ${JSON.stringify(text)}`);
        return;
      }
      const why = refusalReason(text, reference);
      let got: unknown;
      try {
        got = parseStrict(text);
      } catch (err) {
        assert.ok(err instanceof StrictJSONError, String(err));
        assert.notEqual(why, "", `refused ${JSON.stringify(text)}, which breaks no strict rule: ${String(err)}`);
        return;
      }
      assert.equal(why, "", `accepted ${JSON.stringify(text).slice(0, 80)} (${why})`);
      assert.deepEqual(got, reference);
    }),
    { ...params, examples: [["[".repeat(129) + "]".repeat(129)], ["9".repeat(400)], ['{"a":1,"a":2}']] },
  );
});

test("parseFrame judges a frame as parseStrict does", () => {
  fc.assert(
    fc.property(texts, (text) => {
      const verdict = (f: (t: string) => unknown): unknown[] => {
        try {
          return ["ok", f(text)];
        } catch {
          return ["refused"];
        }
      };
      assert.deepEqual(verdict(parseFrame), verdict(parseStrict));
    }),
    { ...params, examples: [["[".repeat(129) + "1" + "]".repeat(129)], ['{"id":' + "9".repeat(310) + "}"]] },
  );
});

// -- generated validators ----------------------------------------------------------------------

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const vectorsDir = join(root, "schema", "vectors");
const vectors: { type: string; valid: boolean; text: string }[] = [];
for (const type of readdirSync(vectorsDir)) {
  for (const verdict of ["valid", "invalid"]) {
    let files: string[] = [];
    try {
      files = readdirSync(join(vectorsDir, type, verdict));
    } catch {
      continue;
    }
    for (const f of files) {
      const raw = readFileSync(join(vectorsDir, type, verdict, f));
      if (isUtf8(raw)) vectors.push({ type, valid: verdict === "valid", text: raw.toString("utf8") });
    }
  }
}

test("validators never throw and name a path in every error", () => {
  fc.assert(
    fc.property(fc.constantFrom(...SCHEMA_TYPE_NAMES), fc.jsonValue({ maxDepth: 4 }), (type, value) => {
      const errs = validate(type, value);
      assert.deepEqual(validate(type, value), errs);
      for (const e of errs) assert.match(e, /^\$/);
    }),
    params,
  );
});

test("a vector's verdict survives whitespace, and one replaced member is the only one blamed", () => {
  fc.assert(
    fc.property(fc.constantFrom(...vectors), fc.constantFrom(" ", "\n", "\t\r\n "), fc.jsonValue({ maxDepth: 3 }), (v, space, value) => {
      const spaced = v.text.startsWith("{") ? "{" + space + v.text.slice(1) + space : space + v.text;
      assert.equal(checkJSON(v.type, spaced).length === 0, v.valid, `${v.type}: ${v.text}`);
      if (!v.valid) return;
      const doc = parseStrict(v.text);
      if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return;
      const keys = Object.keys(doc);
      if (keys.length === 0) return;
      const key = keys[JSON.stringify(value).length % keys.length]!;
      (doc as Record<string, unknown>)[key] = value;
      for (const e of validate(v.type, doc)) assert.ok(e.startsWith("$." + key) || e.startsWith("$:"), e);
    }),
    params,
  );
});
