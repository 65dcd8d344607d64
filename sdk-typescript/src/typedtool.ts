// A typed tool (typed.ts) as the registry takes it: the input's schema is the parameters; with
// an output, the handler's value becomes the result's structured_content (checked against the
// output_schema before sending) and its compact JSON the text part, as Go's StructuredTool and
// Python's typed tools do.
import { toolResult } from "./content.js";
import type { RequestContext } from "./context.js";
import type { JsonObject } from "./json.js";
import type { ToolHandler, ToolSpec } from "./registry.js";
import type { TypedToolSpec } from "./typed.js";

export function typedToolEntry<I, O extends object>(
  spec: TypedToolSpec<I, O>,
  handler: (args: I, ctx: RequestContext) => unknown,
): { spec: ToolSpec; handler: ToolHandler<JsonObject> } {
  const base = { name: spec.name, description: spec.description, parameters: spec.input.schema };
  if (spec.output === undefined) return { spec: base, handler: handler as unknown as ToolHandler<JsonObject> };
  const structured: ToolHandler<JsonObject> = async (args, ctx) => {
    const value = (await handler(args as unknown as I, ctx)) as JsonObject;
    return toolResult(JSON.stringify(value), { structuredContent: value });
  };
  return { spec: { ...base, outputSchema: spec.output.schema }, handler: structured };
}
