// withinBytes, the allocation-free upper bound that spares a small tool result its second
// JSON.stringify: whenever it says "within", the exact encoding is within.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { encodedBytes, MAX_NUMBER_BYTES, withinBytes } from "../src/json.js";

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

// The longest numbers JSON.stringify writes: 17 significant digits in fixed notation just above
// -1e-6 (25 bytes), near 1e21 (22) and in exponent form (24). A bound of 24 a number let an
// array of the first kind pass as within 64 KiB at 67,607 bytes.
test("withinBytes counts the longest numbers a double prints", () => {
  const longest = [-1.2345678901234567e-6, -9.876543210987654e-6, -123456789012345680000, -1.2345678901234567e-300, Number.MIN_VALUE, -Number.MAX_VALUE];
  for (const n of longest) assert.ok(encodedBytes(n) <= MAX_NUMBER_BYTES, `${JSON.stringify(n)} is ${encodedBytes(n)} bytes`);
  assert.equal(encodedBytes(-1.2345678901234567e-6), MAX_NUMBER_BYTES);
  for (const n of longest) {
    for (const count of [1, 100, 2600]) {
      const value = { a: new Array<number>(count).fill(n) };
      const size = encodedBytes(value);
      for (const limit of [size - 1, size, 65536]) {
        if (withinBytes(value, limit)) assert.ok(size <= limit, `${count} × ${n}: ${size} > ${limit}`);
      }
    }
  }
  fc.assert(
    fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 400 }), (items) => {
      const size = encodedBytes(items);
      assert.ok(!withinBytes(items, size - 1));
    }),
  );
});
