// Tool-call round trip: the SDK (the conformance fixture's echo tool) against a minimal
// hand-written JSON-lines echo (the floor), both as child processes over real pipes, calls
// interleaved one at a time so both see the same machine noise.
// Usage: node bench/roundtrip.mjs [calls=5000]   (after `npm run build`)
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { processLink } from "../dist/src/testing/links.js";

const here = dirname(fileURLToPath(import.meta.url));
const fixtureDir = resolve(here, "../../examples/typescript/conformance-fixture");
const calls = Number(process.argv[2] ?? 5000);
const warmup = Math.min(1000, calls);

function client(link) {
  const waiting = new Map();
  link.onLine((line) => {
    const msg = JSON.parse(line);
    const resolve = waiting.get(msg.id);
    if (resolve) {
      waiting.delete(msg.id);
      resolve(msg);
    }
  });
  let next = 1;
  return (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      link.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
}

const manifest = {
  name: "conformance-fixture", version: "0.1.0", api_version: "0.4", entrypoint: { command: "./launch" },
  contributes: {
    commands: ["fixture_cmd", "slow_cmd"], hooks: ["before_prompt", "after_tool_call"], ui: ["status"], context: true, tool_renderers: ["echo"],
    notifications: true, confirmations: true, presentation: true,
  },
};
const init = {
  api_version: "0.4", octet_version: "0.8.0",
  extension: { name: "conformance-fixture", version: "0.1.0", dir: fixtureDir, manifest_path: "extension.toml", source: "explicit" },
  manifest, workspace: { root: process.cwd(), trusted: true },
  protocol: { version: "0.4", required_features: ["request_cancellation", "content_parts"], optional_features: ["dynamic_tools"], limits: { max_concurrent_requests: 8 } },
};

const subjects = [
  { name: "sdk", link: processLink("node", [join(fixtureDir, "dist/extension.js")], { env: { OCTET_EXTENSION_API_VERSION: "0.4" } }) },
  { name: "floor", link: processLink("node", [join(here, "echo-floor.mjs")]) },
];
for (const s of subjects) {
  s.call = client(s.link);
  const r = await s.call("initialize", init);
  if (r.error) throw new Error(`${s.name} initialize failed: ${JSON.stringify(r.error)}`);
  s.samples = [];
}

for (let i = 0; i < warmup + calls; i++) {
  for (const s of i % 2 === 0 ? subjects : [...subjects].reverse()) {
    const t0 = process.hrtime.bigint();
    const r = await s.call("tool/call", { name: "echo", arguments: { value: { i, tag: "bench" } } });
    const t1 = process.hrtime.bigint();
    if (r.error) throw new Error(`${s.name}: ${JSON.stringify(r.error)}`);
    if (i >= warmup) s.samples.push(Number(t1 - t0) / 1000);
  }
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const stats = {};
for (const s of subjects) {
  const sorted = s.samples.sort((a, b) => a - b);
  stats[s.name] = { p50: pct(sorted, 50), p99: pct(sorted, 99) };
  console.log(`${s.name.padEnd(6)} calls=${sorted.length} p50=${stats[s.name].p50.toFixed(1)}µs p99=${stats[s.name].p99.toFixed(1)}µs`);
  s.link.end();
}
console.log(`ratio  p50=${(stats.sdk.p50 / stats.floor.p50).toFixed(2)}x p99=${(stats.sdk.p99 / stats.floor.p99).toFixed(2)}x`);
await Promise.all(subjects.map((s) => s.link.exited));
