// The official JSON Schema Test Suite (draft 2020-12, testsuites/json-schema-test-suite) through
// the SDK's validator: every required case must get the suite's verdict, except the cases the
// shared skip file lists, which must still fail (a listed case that passes is an error, so the
// list only shrinks). `remotes/` is served from memory as http://localhost:1234/. The optional
// format cases are advisory: reported, never failing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

import { compileSchema } from "../src/jsonschema/compile.js";
import { exactInteger, parseFrame } from "../src/wireparse.js";

// dist/test/x.test.js -> repository root
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const suite = join(root, "testsuites", "json-schema-test-suite");
const tests = join(suite, "tests", "draft2020-12");

interface SuiteTest {
  description: string;
  data: unknown;
  valid: boolean;
}
interface SuiteCase {
  description: string;
  schema: unknown;
  tests: SuiteTest[];
}
interface Skip {
  file: string; // tests/draft2020-12/<file>.json
  case: string;
  test: string;
  languages: string[];
  reason: string;
}
interface SuiteFault {
  file: string;
  case: string;
  test: string;
  pointer: string;
  keyword: string;
  reason: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const remoteDocs = new Map<string, unknown>();
for (const path of walk(join(suite, "remotes"))) {
  remoteDocs.set(`http://localhost:1234/${relative(join(suite, "remotes"), path).split("\\").join("/")}`, JSON.parse(readFileSync(path, "utf8")));
}
const remotes = (uri: string): unknown => remoteDocs.get(uri);

// The shared skip file's entries for this language (testsuites/README.md has the format).
const skips: Skip[] = (JSON.parse(readFileSync(join(root, "testsuites", "json-schema-skips.json"), "utf8")) as { skips: Skip[] }).skips.filter((s) =>
  s.languages.includes("typescript"),
);
const skipped = (file: string, c: string, t: string) => skips.some((s) => s.file === file && s.case === c && s.test === t);

interface Tally {
  pass: number;
  total: number;
  wrong: string[];
}

function run(files: string[], assertFormat: boolean, label: (path: string) => string): Tally {
  const tally: Tally = { pass: 0, total: 0, wrong: [] };
  for (const path of files) {
    const file = label(path);
    for (const c of JSON.parse(readFileSync(path, "utf8")) as SuiteCase[]) {
      let compiled: ReturnType<typeof compileSchema> | Error;
      try {
        compiled = compileSchema(c.schema, { remotes, assertFormat });
      } catch (err) {
        compiled = err as Error;
      }
      for (const t of c.tests) {
        tally.total++;
        let right: boolean;
        let why = "";
        if (compiled instanceof Error) {
          right = false;
          why = `schema refused: ${compiled.message}`;
        } else {
          const valid = compiled.valid(t.data);
          // The collecting walk must agree with the boolean one.
          const fault = compiled.check(t.data);
          const faults = compiled.faults(t.data);
          right = valid === t.valid && (fault === null) === valid && (faults.length === 0) === valid;
          if (!right) why = `valid()=${valid}, check()=${JSON.stringify(fault)}, ${faults.length} faults`;
        }
        const skip = skipped(file, c.description, t.description);
        if (right && !skip) tally.pass++;
        else if (!right && !skip) tally.wrong.push(`${file} | ${c.description} | ${t.description}: want valid=${t.valid}; ${why}`);
        else if (right && skip) tally.wrong.push(`${file} | ${c.description} | ${t.description}: listed in json-schema-skips.json but now passes; remove it`);
      }
    }
  }
  return tally;
}

test("JSON Schema Test Suite draft 2020-12: every required case", (t) => {
  const files = readdirSync(tests)
    .filter((n) => n.endsWith(".json"))
    .sort()
    .map((n) => join(tests, n));
  const tally = run(files, false, (p) => relative(suite, p).split("\\").join("/"));
  t.diagnostic(`required: ${tally.pass}/${tally.total} pass, ${skips.length} skipped`);
  console.log(`json-schema-test-suite draft2020-12 required: ${tally.pass}/${tally.total} pass (${skips.length} skip-listed)`);
  assert.ok(tally.total > 1000, "the suite was found");
  assert.deepEqual(tally.wrong, []);
});

test("JSON Schema Test Suite draft 2020-12: optional format cases (advisory)", (t) => {
  const dir = join(tests, "optional", "format");
  const files = readdirSync(dir)
    .filter((n) => n.endsWith(".json"))
    .sort()
    .map((n) => join(dir, n));
  const tally = run(files, true, (p) => relative(suite, p).split("\\").join("/"));
  t.diagnostic(`optional format (advisory): ${tally.pass}/${tally.total} pass`);
  console.log(`json-schema-test-suite draft2020-12 optional/format (advisory, not failing): ${tally.pass}/${tally.total} pass`);
});

// testsuites/json-schema-faults.json: the fault the Go SDK (the oracle) reports for every invalid
// required case; the reported fault must be the same here, pointer, keyword and reason.
test("JSON Schema Test Suite draft 2020-12: the oracle's fault for every invalid case", (t) => {
  const expected = JSON.parse(readFileSync(join(root, "testsuites", "json-schema-faults.json"), "utf8")) as SuiteFault[];
  const cases = new Map<string, SuiteCase[]>();
  const wrong: string[] = [];
  for (const f of expected) {
    let file = cases.get(f.file);
    if (file === undefined) cases.set(f.file, (file = JSON.parse(readFileSync(join(suite, f.file), "utf8")) as SuiteCase[]));
    const c = file.find((x) => x.description === f.case);
    const data = c?.tests.find((x) => x.description === f.test);
    if (c === undefined || data === undefined) {
      wrong.push(`${f.file} | ${f.case} | ${f.test}: not in the suite`);
      continue;
    }
    const fault = compileSchema(c.schema, { remotes }).check(data.data);
    const got = fault === null ? null : { pointer: fault.pointer, keyword: fault.keyword, reason: fault.reason };
    const want = { pointer: f.pointer, keyword: f.keyword, reason: f.reason };
    if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${f.file} | ${f.case} | ${f.test}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  }
  t.diagnostic(`oracle faults: ${expected.length - wrong.length}/${expected.length} agree`);
  console.log(`json-schema-test-suite draft2020-12 faults: ${expected.length - wrong.length}/${expected.length} agree with the Go oracle`);
  assert.ok(expected.length > 500);
  assert.deepEqual(wrong, []);
});

test("JSON Schema Test Suite draft 2020-12: optional/bignum, exactly", () => {
  // Read as wire text (parseFrame keeps the exact integers beyond 2^53); a schema's such
  // integer is given to the validator as a bigint, an instance's through the exact probe.
  const cases = parseFrame(readFileSync(join(tests, "optional", "bignum.json"), "utf8")) as SuiteCase[];
  const exactSchema = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const out: Record<string, unknown> = Array.isArray(value) ? ([] as unknown as Record<string, unknown>) : {};
    for (const [k, x] of Object.entries(value)) out[k] = exactInteger(value, Array.isArray(value) ? Number(k) : k) ?? exactSchema(x);
    return out;
  };
  const wrong: string[] = [];
  let total = 0;
  for (const c of cases) {
    const compiled = compileSchema(exactSchema(c.schema) as object);
    for (const t of c.tests) {
      total++;
      const probe = (parent: object | null, key: string | number) => (parent === null ? exactInteger(t, "data") : exactInteger(parent, key));
      if (compiled.valid(t.data, probe) !== t.valid || (compiled.check(t.data, probe) === null) !== t.valid) wrong.push(`${c.description} | ${t.description}`);
    }
  }
  console.log(`json-schema-test-suite draft2020-12 optional/bignum: ${total - wrong.length}/${total} pass`);
  assert.ok(total >= 9);
  assert.deepEqual(wrong, []);
});
