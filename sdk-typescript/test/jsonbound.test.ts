// withinBytes, the allocation-free upper bound that spares a small tool result its second
// JSON.stringify: whenever it says "within", the exact encoding is within.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { encodedBytes, withinBytes } from "../src/json.js";

test("withinBytes never says within when the encoding is larger", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 4096 }), (value, limit) => {
      if (withinBytes(value, limit)) assert.ok(encodedBytes(value) <= limit, `${encodedBytes(value)} > ${limit}`);
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), fc.double(), (s, d) => {
      const value = { [s]: [s, d, -d, null, true] };
      if (withinBytes(value, 64)) assert.ok(encodedBytes(value) <= 64);
    }),
  );
});

test("withinBytes judges a small plain result, and leaves everything else to the exact count", () => {
  assert.equal(withinBytes({ value: "octet-bench-0123456789" }, 262144), true);
  assert.equal(withinBytes({ value: "x".repeat(50_000) }, 262144), false);
  assert.equal(withinBytes({ n: new Number(123456789) }, 8), false); // encodes as 123456789
  assert.equal(withinBytes({ at: new Date(0) }, 1024), false); // toJSON
  assert.equal(withinBytes({ big: 1n }, 1024), false); // JSON.stringify throws: the caller must see it
  const cycle: Record<string, unknown> = {};
  cycle["self"] = cycle;
  assert.equal(withinBytes(cycle, 262144), false);
});
