// The typed builder: one definition gives the schemas and the handler's types. Its schemas
// for the shared typed tool equal testsuites/typed-parity.json, which the Go SDK derives from
// structs and the Python SDK from type hints; the types are checked at compile time.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { it } from "node:test";
import { Extension, typed, type TypeOf } from "../src/index.js";
import { ScriptedHost } from "../src/testing/index.js";
import type { JsonObject } from "../src/json.js";
import { manifest } from "./helpers.js";

type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function check<T extends true>(): T | undefined {
  return undefined;
}

const Area = typed.object({
  width: typed.number({ minimum: 0, description: "the width" }),
  height: typed.number({ minimum: 0, description: "the height" }),
  count: typed.integer({ minimum: 1, maximum: 10 }),
  tags: typed.optional(typed.array(typed.string())),
  label: typed.optional(typed.string()),
});
const AreaResult = typed.object({ area: typed.number(), unit: typed.optional(typed.string()) });

check<Exact<TypeOf<typeof Area>, { width: number; height: number; count: number; tags?: string[]; label?: string }>>();
check<Exact<TypeOf<typeof AreaResult>, { area: number; unit?: string }>>();
const Mode = typed.enum(["walk", "cycle"]);
check<Exact<TypeOf<typeof Mode>, "walk" | "cycle">>();
check<Exact<TypeOf<ReturnType<typeof typed.nullable<string>>>, string | null>>();

const parity = JSON.parse(readFileSync(new URL("../../../testsuites/typed-parity.json", import.meta.url), "utf8")) as {
  tools: { area: { parameters: JsonObject; output_schema: JsonObject } };
};

function areaExtension(): Extension {
  const ext = new Extension({ apiVersion: "0.4" });
  ext.typedTool({ name: "area", description: "Area of a rectangle", input: Area, output: AreaResult }, (a) => {
    // a is typed: a.width is a number, a.label is string | undefined
    return { area: a.width * a.height, unit: a.label ?? "m" };
  });
  return ext;
}

it("derives the shared typed tool's schemas exactly (parity with Go structs and Python hints)", () => {
  assert.deepEqual(Area.schema, parity.tools.area.parameters);
  assert.deepEqual(AreaResult.schema, parity.tools.area.output_schema);
});

it("announces the schemas and returns structured content with its JSON as text", async () => {
  const host = ScriptedHost.inProcess(areaExtension(), { manifest: manifest({ tools: ["area"] }) });
  const init = await host.initialize();
  const tools = (init.result as { tools: { name: string; parameters: JsonObject; output_schema?: JsonObject }[] }).tools;
  assert.deepEqual(tools[0]?.parameters, parity.tools.area.parameters);
  assert.deepEqual(tools[0]?.output_schema, parity.tools.area.output_schema);
  const ok = await host.callTool("area", { width: 2, height: 3, count: 1 });
  assert.deepEqual(ok.result, { content: [{ type: "text", text: '{"area":6,"unit":"m"}' }], structured_content: { area: 6, unit: "m" } });
  const bad = await host.callTool("area", { width: -1, height: 3, count: 1 });
  assert.equal(bad.error?.code, -32602); // the input schema is enforced before the handler runs
  host.end();
});

it("refuses an output that breaks its own schema", async () => {
  const ext = new Extension({ apiVersion: "0.4" });
  const Out = typed.object({ n: typed.integer({ maximum: 1 }) });
  ext.typedTool({ name: "over", description: "returns too much", input: typed.object({}), output: Out }, () => ({ n: 5 }));
  const host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: ["over"] }) });
  await host.initialize();
  const resp = await host.callTool("over", {});
  assert.equal(resp.error?.code, -32603);
  host.end();
});

it("keeps an input-only typed tool's ordinary results", async () => {
  const ext = new Extension({ apiVersion: "0.4" });
  ext.typedTool({ name: "greet", description: "Greet", input: typed.object({ name: typed.string({ minLength: 1 }) }) }, (a) => `Hello, ${a.name}!`);
  const host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: ["greet"] }) });
  await host.initialize();
  assert.deepEqual((await host.callTool("greet", { name: "Ada" })).result, { content: [{ type: "text", text: "Hello, Ada!" }] });
  host.end();
});

it("writes plain frozen JSON Schema", () => {
  assert.deepEqual(typed.nullable(typed.string()).schema, { anyOf: [{ type: "string" }, { type: "null" }] });
  assert.deepEqual(typed.record(typed.integer()).schema, { type: "object", additionalProperties: { type: "integer" } });
  assert.deepEqual(typed.object({}).schema, { type: "object", properties: {}, additionalProperties: false });
  assert.deepEqual(Mode.schema, { enum: ["walk", "cycle"] });
  assert.ok(Object.isFrozen(Area.schema));
  assert.throws(() => typed.enum([]), /at least one value/);
});
