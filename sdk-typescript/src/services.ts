// Reverse calls: everything the extension asks of the host. Each method checks negotiation and
// local bounds first, fills parent_request_id from the handler (explicit `parent` or the
// ambient context), and validates the basic shape of what comes back.
import { currentContext } from "./context.js";
import { FeatureUnavailableError, ProtocolError, ValidationError } from "./errors.js";
import { isObject, type Id, type JsonObject, type JsonValue } from "./json.js";
import * as C from "./checks.js";
import type * as G from "./generated/index.js";
import * as L from "./limits.js";
import { FeatureName } from "./generated/dispatch.js";
import { Method } from "./generated/methods.js";
import { Migrations, type MigrationStep } from "./migrate.js";
import type {
  AgentModel, AgentPolicy, AgentRecord, AgentSpawnResult, ApiVersion, ArtifactRef, ContextItem, KVCommitResult, KVGetResult,
  KVListResult, KVPrecondition, KVWrite, Parent, PolicyDecision, PolicyIntent, ResourceOwner, Snapshot, StatusResult,
} from "./types.js";

export interface ParentOption {
  /** The request this call belongs to; defaults to the handler currently running. */
  parent?: Parent;
}

export type ArtifactSource =
  | { mimeType: string; name?: string; data: Uint8Array }
  | { mimeType: string; name?: string; path: string; size: number; sha256: string };

export interface SpawnAgentOptions extends ParentOption {
  taskName: string;
  message: string;
  idempotencyKey: string;
  tools: AgentPolicy["tools"];
  maxDepth?: 1;
  maxConcurrentChildren: number;
  maxTurns: number;
  maxTokens?: number | null;
  maxCostMicrodollars: number;
  maxOutputBytes: number;
  timeoutMs: number;
  profile?: string;
  fingerprint?: string;
  modelSelection?: { provider?: string; model?: string };
}

export interface KVListOptions {
  namespace: string;
  prefix?: string;
  cursor?: string;
  limit?: number;
}

export interface KVCommitBatch {
  preconditions?: KVPrecondition[];
  writes: KVWrite[];
}

// Every answer a method below reads went through call(), which checks it against the
// method's generated result validator (required fields, types, enums, patterns), so the
// fields are read directly; only rules the schema cannot state (a byte bound, the policy
// token's pairing with "ask") are checked here.

/** The transport-facing half the services need; Extension implements it. */
export abstract class HostServices {
  protected abstract readonly negotiated: ReadonlySet<string>;
  protected abstract apiVersion(): ApiVersion | undefined;
  protected abstract extensionName(): string;
  protected abstract manifestFlag(name: string): boolean;
  /** The manifest the host sent in initialize (undefined before it). */
  protected abstract sentManifest(): JsonObject | undefined;
  protected abstract send(method: string, params: JsonObject): void;
  protected abstract call(method: string, params: JsonObject, signal?: AbortSignal): Promise<JsonValue>;

  private lastPresentationRevision: number | undefined;
  private readonly migrations = new Migrations();

  protected require(feature: string, what: string): void {
    if (!this.negotiated.has(feature)) throw new FeatureUnavailableError(feature, what);
  }

  protected requireApi02(what: string): void {
    const v = this.apiVersion();
    if (v === undefined) throw new ValidationError(`${what} is only available after initialize`);
    if (v === "0.1") throw new ValidationError(`${what} is not part of API 0.1`);
  }

  /** Resolve the parent request id (explicit option, else the ambient handler). */
  protected parentOf(opts: ParentOption | undefined, what: string, required: boolean): { id: Id | undefined; signal: AbortSignal | undefined } {
    const p = opts?.parent ?? currentContext();
    if (p === undefined) {
      if (required) throw new ValidationError(`${what} needs a parent request: call it from a handler or pass { parent: ctx }`, "/parent_request_id");
      return { id: undefined, signal: undefined };
    }
    if (typeof p === "string" || typeof p === "number") return { id: p, signal: undefined };
    if (required && p.parentRequestId === undefined) throw new ValidationError(`${what} needs a parent request id (not available on API 0.1)`);
    return { id: p.parentRequestId, signal: p.signal };
  }

  // ---- notifications and confirmations

  /** Show a notification (manifest `notifications = true`). */
  notify(message: string, options: { level?: "info" | "success" | "warning" | "error"; title?: string } = {}): void {
    C.checkBytes(message, "message", 0, Number.MAX_SAFE_INTEGER);
    if ([...message].length > 4096) throw new ValidationError("notification message is longer than 4096 chars", "/message");
    const params: JsonObject = { message, level: options.level ?? "info" };
    if (options.title !== undefined) params["title"] = options.title;
    this.send(Method.NOTIFICATION, params);
  }

  /** Ask the user to confirm; resolves to their answer (denied when no UI can answer). */
  async confirm(message: string, options: ParentOption & { title?: string; destructive?: boolean } = {}): Promise<boolean> {
    const params: JsonObject = { message };
    if (options.title !== undefined) params["title"] = options.title;
    if (options.destructive !== undefined) params["destructive"] = options.destructive;
    let signal: AbortSignal | undefined;
    if (this.apiVersion() !== "0.1") {
      const parent = this.parentOf(options, "confirm", false);
      if (parent.id !== undefined) params["parent_request_id"] = parent.id;
      signal = parent.signal;
    }
    const result = (await this.call(Method.CONFIRMATION_REQUEST, params, signal)) as unknown as G.ConfirmationRequestResult;
    return result.confirmed;
  }

  /**
   * Ask for typed input; null means cancelled or no input available (API 0.2+).
   * `options` offers choices in order (at most 64, unique values, not with `secret`): the
   * answer is one option's value, or any text with `allowFreeText`; the host refuses
   * anything else (null).
   */
  async requestInput(prompt: string, options: ParentOption & { secret?: boolean; options?: readonly G.InputOption[]; allowFreeText?: boolean } = {}): Promise<string | null> {
    this.requireApi02("requestInput");
    C.checkPrompt(prompt);
    const parent = this.parentOf(options, "requestInput", true);
    const params: JsonObject = { parent_request_id: parent.id!, prompt, secret: options.secret ?? false };
    if (options.options !== undefined) params["options"] = options.options.map((o) => ({ ...o })) as unknown as JsonObject[];
    if (options.allowFreeText === true) params["allow_free_text"] = true;
    const result = (await this.call(Method.INPUT_REQUEST, params, parent.signal)) as unknown as G.InputRequestResult;
    const value = result["value"];
    if (value === null) return null;
    if (Buffer.byteLength(value) > L.INPUT_VALUE_MAX_BYTES) throw new ProtocolError(`input value exceeds ${L.INPUT_VALUE_MAX_BYTES} bytes`);
    return value;
  }

  // ---- kernel services

  /** Publish an artifact from bytes (≤ 256 KiB) or from a file under OCTET_EXTENSION_SCRATCH. */
  async publishArtifact(source: ArtifactSource, options: ParentOption = {}): Promise<ArtifactRef> {
    this.require(FeatureName.ARTIFACTS, "publishArtifact");
    if (typeof source.mimeType !== "string" || source.mimeType === "") throw new ValidationError("mimeType must be a non-empty string", "/mime_type");
    const parent = this.parentOf(options, "publishArtifact", true);
    const params: JsonObject = { parent_request_id: parent.id!, mime_type: source.mimeType };
    if (source.name !== undefined) params["name"] = source.name;
    if ("data" in source) {
      if (!(source.data instanceof Uint8Array)) throw new ValidationError("data must be a Uint8Array", "/data");
      if (source.data.byteLength > L.ARTIFACT_INLINE_MAX_BYTES) {
        throw new ValidationError(`inline artifact of ${source.data.byteLength} bytes exceeds ${L.ARTIFACT_INLINE_MAX_BYTES}; write it to the scratch directory and publish by path`, "/data");
      }
      params["data"] = Buffer.from(source.data.buffer, source.data.byteOffset, source.data.byteLength).toString("base64");
    } else {
      params["path"] = C.checkScratchPath(source.path);
      params["size"] = C.checkInt(source.size, "size", 0, L.ARTIFACT_MAX_BYTES);
      if (!C.isSha256(source.sha256)) throw new ValidationError("sha256 must be 64 lowercase hex digits", "/sha256");
      params["sha256"] = source.sha256;
    }
    const r = (await this.call(Method.ARTIFACT_PUBLISH, params, parent.signal)) as unknown as G.ArtifactPublishResult;
    return {
      artifact_id: r.artifact_id,
      size: r.size,
      sha256: r.sha256,
    };
  }

  /** Ask the host's policy about an intent; an `ask` may carry a one-use approval token. */
  async evaluatePolicy(intent: PolicyIntent, options: ParentOption & { approvalToken?: string } = {}): Promise<PolicyDecision> {
    this.require(FeatureName.POLICY_INTENTS, "evaluatePolicy");
    if (!isObject(intent) || typeof intent.kind !== "string" || typeof intent.operation !== "string") {
      throw new ValidationError("intent needs string 'kind' and 'operation'", "/intent");
    }
    const parent = this.parentOf(options, "evaluatePolicy", true);
    const params: JsonObject = { parent_request_id: parent.id!, intent: intent as unknown as JsonObject };
    if (options.approvalToken !== undefined) {
      this.require(FeatureName.APPROVALS, "an approval token");
      if (!C.isSha256(options.approvalToken)) throw new ValidationError("approval token must be 64 lowercase hex digits", "/approval_token");
      params["approval_token"] = options.approvalToken;
    }
    const r = (await this.call(Method.POLICY_EVALUATE, params, parent.signal)) as unknown as G.PolicyEvaluateResult;
    const decision = r.decision;
    const out: PolicyDecision = { decision };
    if (r.reason !== undefined) out.reason = r.reason;
    if (r.approval_token !== undefined) {
      // The schema checked the token's form; that it comes only with "ask" is across fields.
      if (decision !== "ask") throw new ProtocolError(`policy/evaluate returned an approval token with decision '${decision}'; tokens come only with 'ask'`);
      out.approval_token = r.approval_token;
    }
    return out;
  }

  /** Read a brokered secret named in the manifest's [capabilities].secrets. Never log it. */
  async getSecret(name: string, options: ParentOption = {}): Promise<string> {
    this.require(FeatureName.SECRETS, "getSecret");
    C.checkSecretName(name);
    const parent = this.parentOf(options, "getSecret", true);
    const r = (await this.call(Method.SECRET_GET, { parent_request_id: parent.id!, name }, parent.signal)) as unknown as G.SecretGetResult;
    const value = r.value;
    if (Buffer.byteLength(value) > L.SECRET_VALUE_MAX_BYTES) throw new ProtocolError(`secret value exceeds ${L.SECRET_VALUE_MAX_BYTES} bytes`);
    return value;
  }

  // ---- child sessions

  async spawnAgent(options: SpawnAgentOptions): Promise<AgentSpawnResult> {
    this.require(FeatureName.AGENT_SESSIONS, "spawnAgent");
    const policy: AgentPolicy = {
      tools: options.tools,
      max_depth: options.maxDepth ?? 1,
      max_concurrent_children: options.maxConcurrentChildren,
      max_turns: options.maxTurns,
      max_tokens: options.maxTokens ?? null,
      max_cost_microdollars: options.maxCostMicrodollars,
      max_output_bytes: options.maxOutputBytes,
      timeout_ms: options.timeoutMs,
    };
    C.checkName48(options.taskName, "task_name");
    if (options.profile !== undefined) C.checkName48(options.profile, "profile");
    if (options.fingerprint !== undefined && !C.isSha256(options.fingerprint)) throw new ValidationError("fingerprint must be 64 lowercase hex digits", "/fingerprint");
    C.checkAgentMessage(options.message);
    C.checkBytes(options.idempotencyKey, "idempotency_key", 1, 256);
    C.checkAgentPolicy(policy);
    const parent = this.parentOf(options, "spawnAgent", true);
    const params: JsonObject = {
      parent_request_id: parent.id!,
      task_name: options.taskName,
      message: options.message,
      idempotency_key: options.idempotencyKey,
      policy: policy as unknown as JsonObject,
    };
    if (options.profile !== undefined) params["profile"] = options.profile;
    if (options.fingerprint !== undefined) params["fingerprint"] = options.fingerprint;
    if (options.modelSelection !== undefined) params["model_selection"] = options.modelSelection as JsonObject;
    const r = (await this.call(Method.AGENT_SPAWN, params, parent.signal)) as unknown as G.AgentSpawnResult;
    return r as unknown as AgentSpawnResult;
  }

  private async steer(method: typeof Method.AGENT_MESSAGE | typeof Method.AGENT_FOLLOW_UP, target: string, message: string, options: ParentOption): Promise<boolean> {
    this.require(FeatureName.AGENT_SESSIONS, method);
    C.checkBytes(target, "target", 1, Number.MAX_SAFE_INTEGER);
    C.checkAgentMessage(message);
    const parent = this.parentOf(options, method, true);
    const r = (await this.call(method, { parent_request_id: parent.id!, target, message }, parent.signal)) as unknown as G.AgentMessageResult;
    return r.accepted;
  }

  /** Steer a running child. */
  sendAgentMessage(target: string, message: string, options: ParentOption = {}): Promise<boolean> {
    return this.steer(Method.AGENT_MESSAGE, target, message, options);
  }

  /** Resume a settled child with a follow-up. */
  followUpAgent(target: string, message: string, options: ParentOption = {}): Promise<boolean> {
    return this.steer(Method.AGENT_FOLLOW_UP, target, message, options);
  }

  async listAgentModels(options: ParentOption & { query?: string; limit?: number } = {}): Promise<AgentModel[]> {
    this.require(FeatureName.AGENT_SESSIONS, "listAgentModels");
    const limit = C.checkInt(options.limit ?? 50, "limit", 1, 200);
    const parent = this.parentOf(options, "listAgentModels", true);
    const params: JsonObject = { parent_request_id: parent.id!, limit };
    if (options.query !== undefined) params["query"] = options.query;
    const r = (await this.call(Method.AGENT_MODELS, params, parent.signal)) as unknown as G.AgentModelsResult;
    return r.models;
  }

  async listAgents(options: ParentOption = {}): Promise<AgentRecord[]> {
    this.require(FeatureName.AGENT_SESSIONS, "listAgents");
    const parent = this.parentOf(options, "listAgents", true);
    const r = (await this.call(Method.AGENT_LIST, { parent_request_id: parent.id! }, parent.signal)) as unknown as G.AgentListResult;
    return r.agents;
  }

  async waitAgents(options: ParentOption & { timeoutMs?: number } = {}): Promise<{ timed_out: boolean; agents: AgentRecord[] }> {
    this.require(FeatureName.AGENT_SESSIONS, "waitAgents");
    const timeout = C.checkInt(options.timeoutMs ?? L.AGENT_WAIT_DEFAULT_MS, "timeout_ms", L.AGENT_WAIT_MIN_MS, L.AGENT_WAIT_MAX_MS);
    const parent = this.parentOf(options, "waitAgents", true);
    const r = (await this.call(Method.AGENT_WAIT, { parent_request_id: parent.id!, timeout_ms: timeout }, parent.signal)) as unknown as G.AgentWaitResult;
    return {
      timed_out: r.timed_out,
      agents: r.agents,
    };
  }

  async interruptAgent(target: string, options: ParentOption = {}): Promise<boolean> {
    this.require(FeatureName.AGENT_SESSIONS, "interruptAgent");
    C.checkBytes(target, "target", 1, Number.MAX_SAFE_INTEGER);
    const parent = this.parentOf(options, "interruptAgent", true);
    const r = (await this.call(Method.AGENT_INTERRUPT, { parent_request_id: parent.id!, target }, parent.signal)) as unknown as G.AgentInterruptResult;
    return r.interrupted;
  }

  // ---- presentation and contributions

  /**
   * Replace the presentation snapshot: the wire's `presentation/update` (manifest
   * `presentation = true`, API 0.2+).
   * From a handler it carries parent_request_id; background publishers pass the host-issued
   * resourceOwner; with neither the state is process-scoped.
   */
  updatePresentation(snapshot: Snapshot, options: { parent?: Parent; resourceOwner?: ResourceOwner } = {}): void {
    this.requireApi02("updatePresentation");
    if (!this.manifestFlag("presentation")) throw new ValidationError("updatePresentation needs [contributes] presentation = true in the manifest");
    if (options.parent !== undefined && options.resourceOwner !== undefined) {
      throw new ValidationError("parent and resourceOwner are mutually exclusive");
    }
    C.checkSnapshot(snapshot, this.lastPresentationRevision);
    const params: JsonObject = { snapshot: snapshot as unknown as JsonObject };
    if (options.resourceOwner !== undefined) params["resource_owner"] = options.resourceOwner as unknown as JsonObject;
    else {
      const parent = this.parentOf(options, "updatePresentation", false);
      if (parent.id !== undefined) params["parent_request_id"] = parent.id;
    }
    this.send(Method.PRESENTATION_UPDATE, params);
    this.lastPresentationRevision = snapshot.revision;
  }

  /**
   * `updatePresentation` under its old name.
   * @deprecated Use `updatePresentation`, named for the wire's `presentation/update`
   * (docs/glossary.md); this name goes in the release after next.
   */
  publishPresentation(snapshot: Snapshot, options: { parent?: Parent; resourceOwner?: ResourceOwner } = {}): void {
    this.updatePresentation(snapshot, options);
  }

  /** Push context items unprompted (manifest `context = true`). */
  contributeContext(items: ContextItem[]): void {
    this.send(Method.CONTEXT_CONTRIBUTION, { items: items as unknown as JsonValue[] });
  }

  /** Push a status/header/footer line unprompted (manifest ui). */
  contributeStatus(status: StatusResult): void {
    if ([...status.text].length > 1024) throw new ValidationError("status text is longer than 1024 chars", "/text");
    this.send(Method.STATUS_CONTRIBUTION, status as unknown as JsonObject);
  }

  // ---- kv (API 0.4)

  readonly kv = {
    get: (namespace: string, key: string): Promise<KVGetResult> => this.kvGet(namespace, key),
    list: (options: KVListOptions): Promise<KVListResult> => this.kvList(options),
    commit: (batch: KVCommitBatch): Promise<KVCommitResult> => this.kvCommit(batch),
  };

  /**
   * Register the step that rewrites the KV data of version `fromVersion` into `fromVersion + 1`
   * (data stored without a version is version 1). Before the first KV call the SDK runs the
   * steps from the stored version (`octet:kv_version`) up to the manifest's `[state] kv_version`,
   * each step's writes and the version bump in one kv.commit; a failure rejects that KV call
   * with a MigrationError and keeps the old data.
   */
  migration(fromVersion: number, step: MigrationStep): this {
    this.migrations.register(fromVersion, step);
    return this;
  }

  private migrated(): Promise<void> {
    return this.migrations.ensure((method, params) => this.call(method, params), this.extensionName(), this.sentManifest());
  }

  private async kvGet(namespace: string, key: string): Promise<KVGetResult> {
    this.require(FeatureName.KV, Method.KV_GET);
    await this.migrated();
    C.checkNamespace(namespace, this.extensionName(), "/namespace");
    C.checkKVKey(key, "/key");
    const r = (await this.call(Method.KV_GET, { namespace, key })) as unknown as G.KVGetResult;
    return r as unknown as KVGetResult;
  }

  private async kvList(options: KVListOptions): Promise<KVListResult> {
    this.require(FeatureName.KV, Method.KV_LIST);
    await this.migrated();
    C.checkNamespace(options.namespace, this.extensionName(), "/namespace");
    const params: JsonObject = { namespace: options.namespace, prefix: options.prefix ?? "" };
    if (options.cursor !== undefined) params["cursor"] = options.cursor;
    if (options.limit !== undefined) params["limit"] = C.checkInt(options.limit, "limit", 1, L.KV_LIST_MAX);
    const r = (await this.call(Method.KV_LIST, params)) as unknown as G.KVListResult;
    return r as unknown as KVListResult;
  }

  private async kvCommit(batch: KVCommitBatch): Promise<KVCommitResult> {
    this.require(FeatureName.KV, Method.KV_COMMIT);
    await this.migrated();
    const own = this.extensionName();
    const pre = batch.preconditions ?? [];
    if (!Array.isArray(pre) || pre.length > L.KV_MAX_BATCH) throw new ValidationError(`at most ${L.KV_MAX_BATCH} preconditions`, "/preconditions");
    if (!Array.isArray(batch.writes) || batch.writes.length < 1 || batch.writes.length > L.KV_MAX_BATCH) {
      throw new ValidationError(`a commit needs 1..${L.KV_MAX_BATCH} writes`, "/writes");
    }
    pre.forEach((p, i) => {
      C.checkNamespace(p.namespace, own, `/preconditions/${i}/namespace`);
      C.checkKVKey(p.key, `/preconditions/${i}/key`);
    });
    batch.writes.forEach((w, i) => {
      C.checkNamespace(w.namespace, own, `/writes/${i}/namespace`);
      C.checkKVKey(w.key, `/writes/${i}/key`);
      if (w.op === "put") C.checkKVValue(w.value, `/writes/${i}/value`);
      else if (w.op !== "delete") throw new ValidationError(`write op must be 'put' or 'delete'`, `/writes/${i}/op`);
    });
    const r = (await this.call(Method.KV_COMMIT, { preconditions: pre as unknown as JsonValue[], writes: batch.writes as unknown as JsonValue[] })) as unknown as G.KVCommitResult;
    return r as unknown as KVCommitResult;
  }
}

/** Canonical JSON: object keys sorted, no whitespace (the kv version digest input). */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(",")}}`;
}

/** @deprecated use KVListOptions (docs/glossary.md) */
export type KvListOptions = KVListOptions;
/** @deprecated use KVCommitBatch (docs/glossary.md) */
export type KvCommitBatch = KVCommitBatch;
