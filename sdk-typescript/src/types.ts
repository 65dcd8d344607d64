// Wire types the SDK's public API speaks: the generated schema types (src/generated/, from
// schema/) under the names this SDK has always used. Only what the schema does not say
// stays hand-written: the hook payload map keyed by hook name, the lifecycle event as one
// readable shape over the six notifications, values the SDK has parsed (JsonValue where the
// schema says "any JSON"), tool schemas as JsonSchema, and Parent.
import type * as G from "./generated/index.js";
import type { JsonValue, Id } from "./json.js";
import type { JsonSchema } from "./schema.js";

export type { ApiVersion, ResourceOwner, TextPart, ImagePart, AudioPart, ContentPart, ToolResult01 } from "./generated/index.js";
export type { HookName, HookRunResult as HookResult, ContextItem, ContextCollectParams } from "./generated/index.js";
export type { StatusCollectParams, StatusCollectResult as StatusResult, ToolRenderResult as RenderResult } from "./generated/index.js";
export type { Outcome, ShutdownParams, ArtifactPublishResult as ArtifactRef, PolicyIntent } from "./generated/index.js";
export type { PolicyEvaluateResult as PolicyDecision, AgentState, AgentPolicy, AgentSpawnResult, AgentRecord, AgentModel } from "./generated/index.js";
export type { State as PresentationState, Reference, Activity, Node as PresentationNode, Action as PresentationAction } from "./generated/index.js";
export type { Snapshot, KVPrecondition, KVWrite, KVCommitResult } from "./generated/index.js";
export type { ToolsCatalogResult as CatalogUpdate, CommandExecuteResult as CommandResult, UISurface as Surface } from "./generated/index.js";

/** A tool result in API 0.2/0.4 (the schema's ToolResult). */
export type ToolResult02 = G.ToolResult;

/** What a tool handler may return: a string (one text part) or a full result. */
export type ToolReturn = string | G.ToolResult | G.ToolResult01;

/** A tool definition; its schemas are JSON Schemas (the wire says open objects). */
export interface ToolDefinition extends Omit<G.ToolDefinition, "parameters" | "output_schema"> {
  parameters: JsonSchema;
  output_schema?: JsonSchema;
}

/** Each hook's payload, by hook name. */
export interface HookPayloads {
  before_prompt: G.BeforePromptPayload;
  after_response: G.AfterResponsePayload;
  before_tool_call: G.BeforeToolCallPayload;
  after_tool_call: G.AfterToolCallPayload;
  before_persistence: G.BeforePersistencePayload;
  post_mutation: G.PostMutationPayload;
}

export type Placement = G.ContextItem["placement"];
export type AgentTool = G.AgentPolicy["tools"][number];

export type RenderParams = G.ToolRenderParams;

/** A lifecycle event name (generated from the schema). */
export type LifecycleMethod = G.LifecycleEvent;
/**
 * One lifecycle event as it happens: its notification's params, whichever of the six it is
 * (the event's name, the schema's `LifecycleEvent` enum, is `LifecycleMethod`).
 */
export interface LifecycleNotification {
  session_id: string;
  turn_id?: string;
  call_id?: string;
  name?: string;
  outcome?: G.Outcome;
  is_error?: boolean;
}

/** kv.get's answer, its value parsed (the schema says any JSON). */
export interface KVGetResult extends Omit<G.KVGetResult, "value"> {
  value?: JsonValue;
}
/** kv.list's answer, its values parsed. */
export interface KVListResult extends Omit<G.KVListResult, "entries"> {
  entries: (Omit<G.KVEntry, "value"> & { value: JsonValue })[];
}

/** Where a reverse call is correlated: a handler's context or an explicit host request id. */
export type Parent = { readonly parentRequestId: Id | undefined; readonly signal?: AbortSignal } | Id;

// Deprecated spellings of the KV names (one release): the schema, Go and every SDK spell the
// initialism KV (docs/glossary.md).
/** @deprecated use KVPrecondition */
export type KvPrecondition = G.KVPrecondition;
/** @deprecated use KVWrite */
export type KvWrite = G.KVWrite;
/** @deprecated use KVCommitResult */
export type KvCommitResult = G.KVCommitResult;
/** @deprecated use KVGetResult */
export type KvGetResult = KVGetResult;
/** @deprecated use KVListResult */
export type KvListResult = KVListResult;
