// The initialize handshake (wire.md §2): pick the API version, check the manifest against what
// the code registered, and answer the supported subset of the offered features.
import { isObject, type JsonObject, type JsonValue } from "./json.js";
import { ErrorCode, MAX_IN_FLIGHT } from "./limits.js";
import type { ApiVersion, ToolDefinition } from "./types.js";
import type { WireError } from "./errors.js";
import { checkWire } from "./wirecheck.js";

export const API_VERSIONS: readonly ApiVersion[] = ["0.1", "0.2", "0.4"];

/** Features this SDK implements (runtime_commands is known but never supported). */
const SUPPORTED = new Set([
  "request_cancellation", "content_parts", "request_progress", "artifacts", "lifecycle_events", "policy_intents",
  "dynamic_tools", "progress_decoration", "agent_sessions", "delegation_telemetry_v1", "approvals", "secrets", "kv",
]);

export interface Registry {
  tools: ToolDefinition[];
  commands: { name: string; description: string }[];
  hooks: string[];
  ui: string[];
  context: boolean;
  renderers: string[];
  lifecycle: string[];
}

export interface Negotiated {
  api: ApiVersion;
  features: Set<string>;
  concurrency: number;
  maxMessageBytes: number | undefined;
  maxPending: number | undefined;
  manifest: JsonObject;
  name: string;
  result: JsonObject;
}

export class HandshakeError extends Error {
  constructor(readonly wire: WireError) {
    super(wire.message);
  }
}

function invalid(message: string, path?: string): HandshakeError {
  const data: JsonObject = { reason: message };
  if (path !== undefined) data["path"] = path;
  return new HandshakeError({ code: ErrorCode.INVALID_PARAMS, message, data });
}

function strings(value: JsonValue | undefined, path: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) throw invalid(`${path} must be an array of strings`, path);
  return value as string[];
}

function sameSet(a: string[], b: string[]): string | undefined {
  const sa = new Set(a);
  const sb = new Set(b);
  for (const x of sa) if (!sb.has(x)) return `'${x}' is registered in code but not declared in the manifest`;
  for (const x of sb) if (!sa.has(x)) return `'${x}' is declared in the manifest but not registered in code`;
  return undefined;
}

function subset(code: string[], manifest: string[], what: string): void {
  const allowed = new Set(manifest);
  for (const x of code) {
    if (!allowed.has(x)) throw invalid(`${what} '${x}' is registered in code but not declared in the manifest [contributes]`);
  }
}

export interface NegotiateOptions {
  pinned: ApiVersion | undefined;
  env: string | undefined;
  maxConcurrentRequests: number;
}

export function negotiate(params: JsonObject | undefined, opts: NegotiateOptions, reg: Registry): Negotiated {
  if (params === undefined) throw invalid("initialize needs params");
  const requested = params["api_version"];
  if (typeof requested !== "string") throw invalid("api_version must be a string", "/api_version");
  const selected = opts.pinned ?? opts.env ?? requested;
  if (requested !== selected || !(API_VERSIONS as readonly string[]).includes(selected)) {
    const supported = (API_VERSIONS as readonly string[]).includes(selected) ? [selected] : [...API_VERSIONS];
    const why = requested === "0.3" ? "API 0.3 is a distinct wire this SDK does not speak" : `this extension speaks API ${supported.join(", ")}`;
    throw new HandshakeError({
      code: ErrorCode.UNSUPPORTED_API_VERSION,
      message: `unsupported api_version ${JSON.stringify(requested)}: ${why}`,
      data: { requested, supported },
    });
  }
  const api = selected as ApiVersion;
  // The schema is the contract: refuse malformed or unknown fields with the first path found.
  const fault = checkWire(api === "0.1" ? "InitializeParams01" : "InitializeParams", params);
  if (fault !== undefined) throw invalid(`initialize params are invalid: ${fault.message}`, fault.path);
  const manifest = params["manifest"];
  if (!isObject(manifest)) throw invalid("manifest must be an object", "/manifest");
  const name = manifest["name"];
  const version = manifest["version"];
  if (typeof name !== "string" || typeof version !== "string") throw invalid("manifest needs string name and version", "/manifest");
  const contributes = isObject(manifest["contributes"]) ? manifest["contributes"] : {};

  const protocol = params["protocol"];
  const features = new Set<string>();
  let concurrency = 1;
  let maxMessageBytes: number | undefined;
  let maxPending: number | undefined;
  if (api === "0.1") {
    if (protocol !== undefined) throw invalid("protocol must be absent for API 0.1", "/protocol");
    const withSchema = reg.tools.find((t) => t.output_schema !== undefined);
    if (withSchema !== undefined) throw invalid(`tool '${withSchema.name}' declares output_schema, which API 0.1 forbids`);
  } else {
    if (!isObject(protocol)) throw invalid(`protocol is required for API ${api}`, "/protocol");
    if (protocol["version"] !== api) throw invalid(`protocol.version ${JSON.stringify(protocol["version"])} must equal api_version ${api}`, "/protocol/version");
    const required = strings(protocol["required_features"], "/protocol/required_features");
    const optional = strings(protocol["optional_features"], "/protocol/optional_features");
    for (const f of required) {
      if (!SUPPORTED.has(f) || (f === "kv" && api !== "0.4")) throw invalid(`required feature '${f}' is not supported by this SDK`, "/protocol/required_features");
      if (f === "lifecycle_events" && reg.lifecycle.length === 0) throw invalid("required feature 'lifecycle_events' needs at least one lifecycle handler", "/protocol/required_features");
      features.add(f);
    }
    const offered = new Set([...required, ...optional]);
    for (const f of optional) {
      if (features.has(f) || !SUPPORTED.has(f)) continue;
      if (f === "kv" && api !== "0.4") continue;
      if (f === "lifecycle_events" && reg.lifecycle.length === 0) continue;
      if (f === "approvals" && !offered.has("policy_intents")) continue;
      features.add(f);
    }
    const limits = protocol["limits"];
    if (!isObject(limits)) throw invalid("protocol.limits must be an object", "/protocol/limits");
    const hostMax = limits["max_concurrent_requests"];
    if (typeof hostMax !== "number" || !Number.isSafeInteger(hostMax) || hostMax < 1) {
      throw invalid("protocol.limits.max_concurrent_requests must be an integer ≥ 1", "/protocol/limits/max_concurrent_requests");
    }
    concurrency = Math.max(1, Math.min(opts.maxConcurrentRequests, hostMax, MAX_IN_FLIGHT));
    const mb = limits["max_message_bytes"];
    if (mb !== undefined) {
      if (typeof mb !== "number" || !Number.isSafeInteger(mb) || mb < 1024) throw invalid("protocol.limits.max_message_bytes must be an integer ≥ 1024", "/protocol/limits/max_message_bytes");
      maxMessageBytes = mb;
    }
    const mp = limits["max_pending_requests"];
    if (mp !== undefined) {
      if (typeof mp !== "number" || !Number.isSafeInteger(mp) || mp < 1) throw invalid("protocol.limits.max_pending_requests must be an integer ≥ 1", "/protocol/limits/max_pending_requests");
      maxPending = mp;
    }
  }

  // The manifest is the contract the host validated; the code must match it.
  if (!features.has("dynamic_tools")) {
    const diff = sameSet(reg.tools.map((t) => t.name), strings(contributes["tools"], "/manifest/contributes/tools"));
    if (diff !== undefined) throw invalid(`tool ${diff} [contributes].tools`);
  }
  const cmdDiff = sameSet(reg.commands.map((c) => c.name), strings(contributes["commands"], "/manifest/contributes/commands"));
  if (cmdDiff !== undefined) throw invalid(`command ${cmdDiff} [contributes].commands`);
  subset(reg.hooks, strings(contributes["hooks"], "/manifest/contributes/hooks"), "hook");
  subset(reg.ui, strings(contributes["ui"], "/manifest/contributes/ui"), "ui surface");
  if (reg.context && contributes["context"] !== true) throw invalid("a context handler is registered but the manifest does not declare [contributes] context = true");
  if (!features.has("dynamic_tools")) subset(reg.renderers, strings(contributes["tool_renderers"], "/manifest/contributes/tool_renderers"), "tool renderer");

  const result: JsonObject = {
    api_version: api,
    name,
    version,
    tools: reg.tools as unknown as JsonValue[],
    commands: reg.commands as unknown as JsonValue[],
  };
  if (reg.hooks.length > 0) result["hooks"] = reg.hooks;
  if (reg.ui.length > 0) result["ui"] = reg.ui;
  if (reg.context) result["context"] = true;
  if (reg.renderers.length > 0) result["tool_renderers"] = reg.renderers;
  if (api !== "0.1") {
    const proto: JsonObject = { version: api, features: [...features], limits: { max_concurrent_requests: concurrency } };
    if (features.has("lifecycle_events")) proto["lifecycle_events"] = reg.lifecycle;
    result["protocol"] = proto;
  }
  return { api, features, concurrency, maxMessageBytes, maxPending, manifest, name, result };
}
