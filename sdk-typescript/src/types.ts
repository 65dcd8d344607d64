// Wire types the SDK's public API speaks (docs/design/wire.md §4–7). They mirror the schema;
// when the generated interfaces land, these become re-exports of them.
import type { JsonObject, JsonValue, Id } from "./json.js";
import type { JsonSchema } from "./schema.js";
import type { LifecycleEvent as GeneratedLifecycleEvent, Outcome as GeneratedOutcome } from "./generated/index.js";

export type ApiVersion = "0.1" | "0.2" | "0.4";

export interface ResourceOwner {
  session_id: string;
  extension_instance_id: string;
  process_generation: number;
}

export type TextPart = { type: "text"; text: string };
export type ImagePart = { type: "image"; artifact_id: string; mime_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp"; alt?: string };
export type AudioPart = { type: "audio"; artifact_id: string; mime_type: "audio/wav" | "audio/mpeg" | "audio/ogg" | "audio/flac"; transcript?: string };
export type ContentPart = TextPart | ImagePart | AudioPart;

export interface ToolResult01 {
  content: string;
  is_error?: boolean;
  metadata?: JsonObject;
}

export interface ToolResult02 {
  content: ContentPart[];
  is_error?: boolean;
  structured_content?: JsonObject;
  metadata?: JsonObject;
}

/** What a tool handler may return: a string (one text part) or a full result. */
export type ToolReturn = string | ToolResult02 | ToolResult01;

export interface ToolDefinition {
  name: string;
  description: string;
  parameters: JsonSchema;
  output_schema?: JsonSchema;
}

export interface CommandResult {
  text: string;
  is_error?: boolean;
}

export type HookName = "before_prompt" | "after_response" | "before_tool_call" | "after_tool_call" | "before_persistence" | "post_mutation";

export interface HookPayloads {
  before_prompt: { prompt: string };
  after_response: { response: string };
  before_tool_call: { name: string; arguments: JsonObject };
  after_tool_call: { name: string; arguments: JsonObject; output: string; is_error: boolean };
  before_persistence: { name: string; output: string };
  post_mutation: { name: string; resource_ids: string[] };
}

export interface HookResult {
  /** replace carries what the hook point replaces: prompt, arguments (before_tool_call) or output (after_tool_call). */
  disposition?: { action: "continue" | "block" | "replace"; message?: string; prompt?: string; arguments?: JsonObject; output?: string };
  persistence_metadata?: { value: JsonObject; public: boolean };
  post_mutation_rescan?: { resource_ids: string[] };
}

export type Placement = "system_prefix" | "system_suffix" | "prompt_prefix" | "prompt_suffix";
export interface ContextItem {
  label: string;
  content: string;
  placement: Placement;
}
export interface ContextCollectParams {
  session_id?: string;
  prompt?: string;
  resource_owner?: ResourceOwner;
}

export type Surface = "status" | "header" | "footer";
export interface StatusCollectParams {
  surface: Surface;
  resource_owner?: ResourceOwner;
}
export interface StatusResult {
  surface: Surface;
  text: string;
  priority: number;
  style_role?: string | null;
}

export interface RenderParams {
  name: string;
  arguments: JsonObject;
  result: ToolResult01 | ToolResult02;
  resource_owner?: ResourceOwner;
}
export interface RenderResult {
  segments: { text: string; style_role: string | null }[];
}

/** How a session, turn or tool settled (generated from the schema). */
export type Outcome = GeneratedOutcome;
/** A lifecycle event name (generated from the schema). */
export type LifecycleMethod = GeneratedLifecycleEvent;
export interface LifecycleEvent {
  session_id: string;
  turn_id?: string;
  call_id?: string;
  name?: string;
  outcome?: Outcome;
  is_error?: boolean;
}

export interface ShutdownParams {
  reason?: "host_exit" | "reload" | "disable" | "restart";
  deadline_ms?: number;
}

export interface ArtifactRef {
  artifact_id: string;
  size: number;
  sha256: string;
}

export interface PolicyIntent {
  kind: string;
  operation: string;
  target?: JsonObject;
  data_classes?: string[];
  adapter_hints?: { read_only?: boolean; destructive?: boolean };
}
export interface PolicyDecision {
  decision: "allow" | "ask" | "deny";
  reason?: string;
  approval_token?: string;
}

export type AgentTool = "read" | "search" | "edit" | "write" | "bash";
export type AgentState = "pending" | "running" | "settled" | "failed" | "interrupted" | "timed_out";
export interface AgentPolicy {
  tools: AgentTool[];
  max_depth: 1;
  max_concurrent_children: number;
  max_turns: number;
  max_tokens: number | null;
  max_cost_microdollars: number;
  max_output_bytes: number;
  timeout_ms: number;
}
export interface AgentSpawnResult {
  agent_id: string;
  session: string;
  state: AgentState;
  created: boolean;
}
export interface AgentRecord {
  agent_id: string;
  session: string;
  task_name: string;
  profile?: string;
  fingerprint?: string;
  idempotency_key: string;
  state: AgentState;
  policy: AgentPolicy;
  created_at_ms: number;
  started_at_ms?: number;
  completed_at_ms?: number;
  deadline_ms?: number;
  turns: number;
  usage: { input_tokens: number; output_tokens: number; cost_microdollars: number };
  output?: string;
  timed_out: boolean;
}
export interface AgentModel {
  provider: string;
  model: string;
  label?: string;
}

export type PresentationState =
  | "empty" | "loading" | "pending" | "active" | "running" | "succeeded" | "failed" | "cancelled" | "degraded" | "stopped" | "unavailable";
export type Reference =
  | { type: "session"; session: string }
  | { type: "artifact"; artifact_id: string }
  | { type: "resource"; resource: string }
  | { type: "url"; url: string };
export interface Activity {
  id: string;
  label: string;
  state: PresentationState;
  detail?: string;
  reference?: Reference;
  metrics?: {
    tool_calls?: number;
    input_tokens?: number;
    cache_read_tokens?: number;
    cache_write_tokens?: number;
    output_tokens?: number;
    reasoning_tokens?: number;
    cost_microdollars?: number;
  };
  started_at_ms?: number;
  updated_at_ms?: number;
}
export interface PresentationNode {
  id: string;
  parent?: string;
  label: string;
  state?: PresentationState;
  reference?: Reference;
}
export interface PresentationAction {
  id: string;
  label: string;
  command: string;
  arguments?: string[];
  destructive?: boolean;
}
export interface Snapshot {
  revision: number;
  status?: { state: PresentationState; label: string; detail?: string };
  activities: Activity[];
  collection?: { kind: "list" | "tree"; nodes: PresentationNode[]; selected?: string; detail?: { title?: string; text: string } };
  actions: PresentationAction[];
}

export interface KvGetResult {
  found: boolean;
  value?: JsonValue;
  version?: string;
}
export interface KvListResult {
  entries: { key: string; value: JsonValue; version: string }[];
  next_cursor?: string;
}
export type KvPrecondition = { namespace: string; key: string; version: string } | { namespace: string; key: string; absent: true };
export type KvWrite = { op: "put"; namespace: string; key: string; value: JsonValue } | { op: "delete"; namespace: string; key: string };
export interface KvCommitResult {
  versions: { namespace: string; key: string; version: string | null }[];
}

export interface CatalogUpdate {
  revision: number;
  tools: string[];
}

/** Where a reverse call is correlated: a handler's context or an explicit host request id. */
export type Parent = { readonly parentRequestId: Id | undefined; readonly signal?: AbortSignal } | Id;
