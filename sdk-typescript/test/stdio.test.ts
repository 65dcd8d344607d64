// The stdio transport's writes: answers written in one tick leave in one write(2), in order; a
// lone answer leaves before the event loop runs again; any other frame leaves at once, after
// the answers held; process.exit() loses no answer; a failed deferred write reaches the
// connection.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs, { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { StdioTransport } from "../src/stdio.js";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");

/** Count fs.writeSync calls (the transport's named import follows syncBuiltinESMExports). */
function countWrites(): { count: () => number; restore: () => void } {
  const real = fs.writeSync;
  let n = 0;
  fs.writeSync = ((...args: Parameters<typeof real>) => {
    n++;
    return real(...args);
  }) as typeof real;
  syncBuiltinESMExports();
  return {
    count: () => n,
    restore: () => {
      fs.writeSync = real;
      syncBuiltinESMExports();
    },
  };
}

function tempFile(): { path: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "octet-stdio-"));
  return { path: join(dir, "out"), done: () => rmSync(dir, { recursive: true, force: true }) };
}

test("answers written in one tick leave in one write, in order; a lone answer is not held past the tick", async () => {
  const file = tempFile();
  const fd = openSync(file.path, "w");
  const writes = countWrites();
  try {
    const t = new StdioTransport(fd);
    const lines = Array.from({ length: 32 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"result":{}}\n`);
    for (const line of lines) t.writeAnswer(line);
    assert.equal(readFileSync(file.path, "utf8"), "", "nothing is written before the tick ends");
    await new Promise((r) => setImmediate(r));
    assert.equal(readFileSync(file.path, "utf8"), lines.join(""));
    assert.equal(writes.count(), 1, "32 frames of one tick in one write");

    // A lone answer settled in a microtask: written before the event loop's next phase.
    await Promise.resolve().then(() => t.writeAnswer('{"jsonrpc":"2.0","id":99,"result":{}}\n'));
    await new Promise((r) => setImmediate(r));
    assert.ok(readFileSync(file.path, "utf8").endsWith('"id":99,"result":{}}\n'));
    assert.equal(writes.count(), 2);
  } finally {
    writes.restore();
    closeSync(fd);
    file.done();
  }
});

test("a progress frame leaves at once, after the answers held; a large batch does not wait for the tick", () => {
  const file = tempFile();
  const fd = openSync(file.path, "w");
  const writes = countWrites();
  try {
    const t = new StdioTransport(fd);
    t.writeAnswer('{"id":1}\n');
    t.writeAnswer('{"id":2}\n');
    t.write('{"method":"$/progress"}\n'); // a handler that never yields still reports progress
    assert.equal(readFileSync(file.path, "utf8"), '{"id":1}\n{"id":2}\n{"method":"$/progress"}\n');
    assert.equal(writes.count(), 1);
    // Answers past the bound are written without waiting: the pipe's backpressure still holds a burst.
    const big = `{"id":3,"result":"${"x".repeat(70 * 1024)}"}\n`;
    t.writeAnswer(big);
    assert.equal(readFileSync(file.path, "utf8").length, 3 * 9 + 15 + big.length);
  } finally {
    writes.restore();
    closeSync(fd);
    file.done();
  }
});

test("a deferred write that fails reaches the sink, and later writes throw", async () => {
  const file = tempFile();
  closeSync(openSync(file.path, "w"));
  const fd = openSync(file.path, "r"); // writing a read-only descriptor fails (EBADF)
  try {
    const t = new StdioTransport(fd);
    const failures: Error[] = [];
    t.start({ data: () => undefined, end: () => undefined, failed: (err) => failures.push(err) });
    t.stop(); // a failure after stdin's end is still reported: the drain's answers are written then
    t.writeAnswer("{}\n");
    await new Promise((r) => setImmediate(r));
    assert.equal(failures.length, 1);
    assert.match(String((failures[0] as NodeJS.ErrnoException).code), /EBADF/);
    assert.throws(() => t.write("{}\n"), /EBADF/);
  } finally {
    closeSync(fd);
    file.done();
  }
});

test("process.exit() right after a write still delivers the frame", () => {
  const script = `import { StdioTransport } from ${JSON.stringify(join(SRC, "stdio.js"))};
const t = new StdioTransport(1);
t.writeAnswer('{"a":1}\\n');
t.writeAnswer('{"b":2}\\n');
process.exit(0);`;
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  assert.equal(out.status, 0, out.stderr);
  assert.equal(out.stdout, '{"a":1}\n{"b":2}\n');
});
