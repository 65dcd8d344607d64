// Pure pieces: framing, the schema checker, result normalisation, local bound checks, logging.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { scratchPath } from "../src/services.js";
import { validate } from "../src/generated/validate.js";
import { normalizeResult01, normalizeResult02 } from "../src/content.js";
import { LineDecoder } from "../src/framing.js";
import { Logger } from "../src/log.js";
import { CatalogHistory } from "../src/catalog.js";
import { ToolError, ValidationError, audioContent, canonicalJson, checkSchema, imageContent, persistenceMetadata, postMutationRescan, textContent, toolResult, type AgentPolicy, type Snapshot } from "../src/index.js";

function decode(chunks: (string | Buffer)[], max = 32): { lines: string[]; faults: string[] } {
  const lines: string[] = [];
  const faults: string[] = [];
  const d = new LineDecoder({ line: (t) => lines.push(t), fault: (r, e) => faults.push(`${r} | ${e}`) }, max);
  for (const c of chunks) d.push(typeof c === "string" ? Buffer.from(c) : c);
  d.end();
  return { lines, faults };
}

describe("LineDecoder", () => {
  it("reassembles lines split across chunks and passes blank lines on (the frame parser refuses them)", () => {
    assert.deepEqual(decode(['{"a":', '1}\n\n{"b"', ":2}\n"]), { lines: ['{"a":1}', "", '{"b":2}'], faults: [] });
  });
  it("refuses a line over the bound before its newline arrives", () => {
    const r = decode(["x".repeat(20), "y".repeat(20)]);
    assert.equal(r.lines.length, 0);
    assert.match(r.faults[0]!, /exceeds the limit of 32 bytes \| xxxx/);
  });
  it("counts bytes, not characters", () => {
    const r = decode(["é".repeat(17) + "\n"]); // 34 bytes
    assert.match(r.faults[0]!, /34 bytes exceeds/);
  });
  it("refuses invalid UTF-8 and a frame cut by EOF", () => {
    assert.match(decode([Buffer.from([0xc3, 0x28, 0x0a])]).faults[0]!, /not valid UTF-8/);
    assert.match(decode(['{"a":1']).faults[0]!, /stream ended inside a frame/);
  });
});

describe("checkSchema", () => {
  const schema = {
    type: "object",
    properties: { n: { type: "integer", minimum: 1 }, tags: { type: "array", items: { type: "string" }, maxItems: 2 }, mode: { enum: ["a", "b"] } },
    required: ["n"],
    additionalProperties: false,
  } as const;
  it("accepts valid values and names the failing path otherwise", () => {
    assert.equal(checkSchema(schema, { n: 2, tags: ["x"], mode: "a" }), null);
    assert.deepEqual(checkSchema(schema, { n: 0 }), { path: "/n", keyword: "minimum", reason: "want at least 1, got 0" });
    assert.deepEqual(checkSchema(schema, { n: 1, tags: ["x", 3] }), { path: "/tags/1", keyword: "type", reason: "want type string, got number" });
    assert.equal(checkSchema(schema, { n: 1, tags: ["a", "b", "c"] })?.path, "/tags");
    assert.equal(checkSchema(schema, { n: 1, mode: "c" })?.path, "/mode");
    assert.deepEqual(checkSchema(schema, { n: 1, x: 1 }), { path: "", keyword: "additionalProperties", reason: 'unexpected property "x"' });
    assert.equal(checkSchema(schema, [])?.reason, "want type object, got array");
    // JSON Schema integers are integral numbers of any size, as in Go's and Python's validators.
    assert.equal(checkSchema({ type: "integer" }, 2 ** 53), null);
    assert.equal(checkSchema({ type: "integer" }, 1.5)?.reason, "want type integer, got number");
  });
  it("handles strings by code points, patterns, anyOf and oneOf", () => {
    assert.equal(checkSchema({ type: "string", maxLength: 2 }, "😀😀"), null);
    assert.notEqual(checkSchema({ type: "string", pattern: "^a+$" }, "ab"), null);
    assert.equal(checkSchema({ anyOf: [{ type: "string" }, { type: "null" }] }, null), null);
    assert.notEqual(checkSchema({ oneOf: [{ type: "number" }, { type: "integer" }] }, 1), null);
  });
});

describe("results", () => {
  it("builds content parts and full results", () => {
    assert.deepEqual(toolResult([textContent("a"), imageContent("art", "image/png", { alt: "pic" }), audioContent("snd", "audio/ogg")], { isError: true, metadata: { m: 1 } }), {
      content: [{ type: "text", text: "a" }, { type: "image", artifact_id: "art", mime_type: "image/png", alt: "pic" }, { type: "audio", artifact_id: "snd", mime_type: "audio/ogg" }],
      is_error: true,
      metadata: { m: 1 },
    });
    assert.deepEqual(persistenceMetadata({ a: 1 }), { persistence_metadata: { value: { a: 1 }, public: false } });
    assert.deepEqual(postMutationRescan(["r1"]), { post_mutation_rescan: { resource_ids: ["r1"] } });
  });
  it("normalises strings and refuses malformed results with the reason", () => {
    assert.deepEqual(normalizeResult02("hi", undefined, "t"), { content: [{ type: "text", text: "hi" }] });
    assert.deepEqual(normalizeResult02({ content: "hi", is_error: true }, undefined, "t"), { content: [{ type: "text", text: "hi" }], is_error: true });
    assert.throws(() => normalizeResult02({ content: [imageContent("a", "image/png")] }, undefined, "t"), /no text part/);
    assert.throws(() => normalizeResult02({ content: [] }, undefined, "t"), /0 content parts/);
    assert.throws(() => normalizeResult02({ content: Array(257).fill(textContent("x")) }, undefined, "t"), /257 content parts/);
    assert.throws(() => normalizeResult02({ content: "x", extra: 1 }, undefined, "t"), /unknown result field 'extra'/);
    assert.throws(() => normalizeResult02({ content: [{ type: "video" }] }, undefined, "t"), /unknown content part type/);
    assert.throws(() => normalizeResult02({ content: [textContent("x"), { type: "image", artifact_id: "a", mime_type: "image/tiff" }] }, undefined, "t"), /unsupported mime_type/);
    assert.throws(() => normalizeResult02("x", { type: "object" }, "t"), /declares output_schema but returned no structured_content/);
    assert.throws(() => normalizeResult02({ content: "x", structured_content: { n: "1" } }, { type: "object", properties: { n: { type: "integer" } } }, "t"), /breaks its output_schema: \/structured_content\/n: /);
    assert.throws(() => normalizeResult02({ content: "x", metadata: { big: "x".repeat(65536) } }, undefined, "t"), /metadata of \d+ bytes exceeds 65536/);
    assert.throws(() => normalizeResult02(undefined, undefined, "t"), /returned nothing/);
    assert.deepEqual(normalizeResult01({ content: [textContent("a"), textContent("b")], is_error: false }, "t"), { content: "a\nb", is_error: false });
  });
  it("ToolError refuses the reserved code range", () => {
    assert.throws(() => new ToolError(-32000, "x"), ValidationError);
    assert.throws(() => new ToolError(-32768, "x"), ValidationError);
    assert.throws(() => new ToolError(1.5, "x"), ValidationError);
    assert.deepEqual(new ToolError(-31999, "ok", { a: 1 }).toWire(), { code: -31999, message: "ok", data: { a: 1 } });
  });
});

describe("local rules and the schema's bounds", () => {
  it("refuses absolute and traversing artifact paths (a rule the schema cannot state)", () => {
    assert.equal(scratchPath("captures/./a.png"), "captures/a.png");
    for (const bad of ["/etc/passwd", "../x", "a/../../x", "a/..", "C:/x", "a\\b", "a\0b", ".", "dir/"]) {
      assert.throws(() => scratchPath(bad), ValidationError, bad);
    }
  });
  it("agent policies and snapshots are bounded by the generated validator send uses", () => {
    const ok: AgentPolicy = { tools: ["read"], max_depth: 1, max_concurrent_children: 1, max_turns: 1, max_tokens: null, max_cost_microdollars: 0, max_output_bytes: 1, timeout_ms: 1 };
    assert.deepEqual(validate("AgentPolicy", ok), []);
    for (const bad of [{ ...ok, tools: [] }, { ...ok, tools: ["read", "read"] }, { ...ok, max_tokens: 999 }, { ...ok, max_concurrent_children: 9 }, { ...ok, max_depth: 2 }]) {
      assert.notDeepEqual(validate("AgentPolicy", bad), [], JSON.stringify(bad));
    }
    const snap: Snapshot = { revision: 3, activities: [], actions: [] };
    assert.deepEqual(validate("Snapshot", snap), []);
    for (const bad of [
      { ...snap, actions: Array(65).fill({ id: "a", label: "l", command: "c" }) },
      { ...snap, activities: [{ id: "bad id!", label: "l", state: "running" }] },
      { ...snap, collection: { kind: "list", nodes: [], detail: { text: "x".repeat(65537) } } },
      { ...snap, revision: -1 },
    ]) assert.notDeepEqual(validate("Snapshot", bad), [], JSON.stringify(bad).slice(0, 80));
  });
});

describe("catalog history", () => {
  it("retains eight committed revisions and addresses the staged one", () => {
    const h = new CatalogHistory<string>(new Map([["a", "a0"]]));
    for (let i = 1; i <= 9; i++) {
      const rev = h.stage(new Map([["a", `a${i}`]]));
      assert.equal(h.at(rev)?.get("a"), `a${i}`, "staged catalog is callable before the ack");
      h.commit(rev, ["a"]);
    }
    assert.deepEqual(h.retained(), [2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(h.at(1), undefined);
    assert.equal(h.at(undefined)?.get("a"), "a9");
  });
  it("keeps only host-accepted names", () => {
    const h = new CatalogHistory<string>(new Map());
    h.stage(new Map([["a", "x"], ["b", "y"]]));
    assert.deepEqual([...h.commit(1, ["b"]).keys()], ["b"]);
  });
});

describe("logging and canonical JSON", () => {
  it("writes one JSON object per line with ts, level, msg and fields", () => {
    const lines: string[] = [];
    const log = new Logger((l) => lines.push(l));
    log.info("hello", { n: 1, msg: "cannot override" });
    log.child({ request_id: 7 }).error("bad");
    assert.equal(lines.length, 2);
    const first = JSON.parse(lines[0]!);
    assert.match(first.ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual([first.level, first.msg, first.n], ["info", "hello", 1]);
    assert.equal(JSON.parse(lines[1]!).request_id, 7);
    assert.ok(lines.every((l) => l.endsWith("\n") && !l.slice(0, -1).includes("\n")));
  });
  it("sorts keys recursively", () => {
    assert.equal(canonicalJson({ b: [{ d: 1, c: 2 }], a: null }), '{"a":null,"b":[{"c":2,"d":1}]}');
  });
});
