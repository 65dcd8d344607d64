// Validation cost per call of a typical tool `parameters` schema: the SDK's compiled validator
// (boolean path for a valid instance, reported fault for an invalid one) against ajv (dev-only
// baseline, draft 2020-12, compiled once) and, when OLD_SCHEMA points at it, the interpreting
// checkSchema of before the rewrite (commit 5bb2d46; `node bench/build-before.mjs` builds it).
// Usage: node bench/validate.mjs [calls per batch=50000]   (after `npm run build`)
import Ajv2020 from "ajv/dist/2020.js";
import { checkSchema, compileSchema } from "../dist/src/schema.js";

const calls = Number(process.argv[2] ?? 50000);
const rounds = 11;

// The typical tool schema and instances of sdk-python/bench/validate.py and Go's
// BenchmarkValidateArguments, so the three languages' numbers compare.
const schema = {
  type: "object",
  properties: {
    query: { type: "string", minLength: 1, maxLength: 200 },
    limit: { type: "integer", minimum: 1, maximum: 100 },
    tags: { type: "array", items: { type: "string", pattern: "^[a-z0-9-]+$" }, maxItems: 10 },
    mode: { enum: ["fast", "exact"] },
    since: { type: "string" },
  },
  required: ["query"],
  additionalProperties: false,
};
const valid = { query: "weather in Paris", limit: 10, tags: ["news", "eu-west"], mode: "fast" };
const invalid = { query: "weather in Paris", limit: 0, tags: ["news", "EU"], mode: "fast" };

// One timed batch of `calls` calls, in ns of this process's CPU time per call (on a shared
// machine CPU time is steadier than wall time, which counts the other jobs' time slices).
function batch(fn, value) {
  let sink = 0;
  const t0 = process.cpuUsage();
  for (let i = 0; i < calls; i++) if (fn(value)) sink++;
  const used = process.cpuUsage(t0);
  const ns = ((used.user + used.system) * 1e3) / calls;
  return sink < 0 ? -1 : ns;
}

// Candidates take turns batch by batch (the machine is shared, so all see the same noise).
function measure(candidates, value) {
  for (const [, fn] of candidates) for (let i = 0; i < 20000; i++) fn(value); // warm up the JIT
  const runs = candidates.map(() => []);
  for (let r = 0; r < rounds; r++) candidates.forEach(([, fn], c) => runs[c].push(batch(fn, value)));
  return runs.map((ns) => {
    ns.sort((a, b) => a - b);
    return { median: ns[rounds >> 1], min: ns[0], max: ns[rounds - 1] };
  });
}

const compiled = compileSchema(schema);
const ajv = new Ajv2020({ strict: false }).compile(schema);
const candidates = [
  ["sdk compiled: valid()", (v) => compiled.valid(v)],
  ["sdk compiled: check() (fault on invalid)", (v) => compiled.check(v) === null],
  ["sdk checkSchema() (cached compile)", (v) => checkSchema(schema, v) === null],
  ["ajv 8 (2020, allErrors off)", (v) => ajv(v)],
];
if (process.env.OLD_SCHEMA) {
  const old = await import(process.env.OLD_SCHEMA);
  candidates.push(["before: interpreting checkSchema (5bb2d46)", (v) => old.checkSchema(schema, v) === null]);
}

// Sanity: every candidate gives the verdict expected of each instance.
for (const [name, fn] of candidates) {
  if (fn(valid) !== true || fn(invalid) !== false) throw new Error(`${name} misjudges the instances`);
}

console.log(`node ${process.version}, ${rounds} rounds of ${calls} calls, CPU ns per call: median [min..max]`);
for (const [label, value] of [["valid", valid], ["invalid (limit 0, a tag \"EU\")", invalid]]) {
  console.log(`\n${label}:`);
  const results = measure(candidates, value);
  const ajvMedian = results[candidates.findIndex(([name]) => name.startsWith("ajv"))].median;
  candidates.forEach(([name], c) => {
    const m = results[c];
    console.log(`  ${name.padEnd(44)} ${m.median.toFixed(0).padStart(6)}  [${m.min.toFixed(0)}..${m.max.toFixed(0)}]  ${(m.median / ajvMedian).toFixed(2)}x ajv`);
  });
}
