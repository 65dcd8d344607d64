// The SDK's hand-written wire types must stay assignable to the generated schema types (both
// directions where the SDK reads what the host sends): a schema change that the SDK's types
// do not follow fails this file at compile time.
import assert from "node:assert/strict";
import { it } from "node:test";
import type * as G from "../src/generated/index.js";
import type * as S from "../src/index.js";

type Assignable<A, B> = [A] extends [B] ? true : false;
function check<T extends true>(): T | undefined {
  return undefined;
}

// What the SDK sends must satisfy the schema.
check<Assignable<S.ToolResult02, G.ToolResult>>();
check<Assignable<S.ToolResult01, G.ToolResult01>>();
check<Assignable<S.ContentPart, G.ContentPart>>();
check<Assignable<S.CommandResult, G.CommandExecuteResult>>();
check<Assignable<S.HookResult, G.HookRunResult>>();
check<Assignable<S.StatusResult, G.StatusCollectResult>>();
check<Assignable<S.RenderResult, G.ToolRenderResult>>();
check<Assignable<S.ContextItem, G.ContextItem>>();
check<Assignable<S.PolicyIntent, G.PolicyIntent>>();
check<Assignable<S.AgentPolicy, G.AgentPolicy>>();
check<Assignable<S.Snapshot, G.Snapshot>>();
check<Assignable<S.KVWrite, G.KVWrite>>();
check<Assignable<S.KVPrecondition, G.KVPrecondition>>();
// What the SDK receives must be readable through its own types.
check<Assignable<G.ResourceOwner, S.ResourceOwner>>();
check<Assignable<G.PolicyEvaluateResult, S.PolicyDecision>>();
check<Assignable<G.ArtifactPublishResult, S.ArtifactRef>>();
check<Assignable<G.AgentSpawnResult, S.AgentSpawnResult>>();
// The schema types an open JSON value as `unknown`; the SDK, having parsed it, says JsonValue.
check<Assignable<Omit<G.KVGetResult, "value">, Omit<S.KVGetResult, "value">>>();
check<Assignable<G.KVCommitResult, S.KVCommitResult>>();
check<Assignable<G.ShutdownParams, S.ShutdownParams>>();

// Tool argument inference: from the schema, explicit, or a plain JSON object without a schema.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const inferred = { type: "object", properties: { n: { type: "integer" }, tags: { type: "array", items: { type: "string" } }, mode: { enum: ["a", "b"] } }, required: ["n"] } as const;
check<Exact<S.ArgsOf<never, typeof inferred>, { n: number; tags?: string[]; mode?: "a" | "b" }>>();
check<Exact<S.ArgsOf<{ x: string }, S.JsonSchema>, { x: string }>>();
check<Exact<S.ArgsOf<never, S.JsonSchema>, S.JsonObject>>();

it("hand-written wire types agree with the generated ones (checked by the compiler)", () => {
  assert.ok(true);
});
