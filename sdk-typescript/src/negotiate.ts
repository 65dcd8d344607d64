// The initialize handshake (wire.md §2): pick the API version, check the manifest against what
// the code registered, and answer the supported subset of the offered features.
import { isObject, type JsonObject, type JsonValue } from "./json.js";
import { ErrorCode, MAX_IN_FLIGHT } from "./limits.js";
import type { ApiVersion, ToolDefinition } from "./types.js";
import type { WireError } from "./errors.js";
import { checkWire } from "./wirecheck.js";
import { DISTINCT_VERSIONS, FEATURE_RULES, LIFECYCLE_EVENTS, NegotiationMessage, SPOKEN_VERSIONS, type FeatureRule } from "./generated/features.js";
import { FeatureName } from "./generated/dispatch.js";

export const API_VERSIONS: readonly ApiVersion[] = SPOKEN_VERSIONS as readonly ApiVersion[];

const RULES = new Map<string, FeatureRule>(FEATURE_RULES.map((r) => [r.name, r]));

function fill(template: string, args: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => args[key] ?? whole);
}

/** Version selection by the schema's negotiation table; undefined selects `requested`. */
export function selectVersion(requested: string, pinned: string | undefined, manifest: string | undefined): WireError | undefined {
  let supported: string[] = pinned !== undefined ? [pinned] : [...SPOKEN_VERSIONS];
  let message: string;
  const distinct = DISTINCT_VERSIONS[requested];
  if (distinct !== undefined) {
    message = fill(NegotiationMessage.VERSION_DISTINCT, { requested, reason: distinct });
  } else if (!SPOKEN_VERSIONS.includes(requested) || (pinned !== undefined && requested !== pinned)) {
    message = fill(NegotiationMessage.VERSION_UNSUPPORTED, { requested, supported: supported.join(", ") });
  } else if (manifest !== undefined && manifest !== "" && manifest !== requested) {
    message = fill(NegotiationMessage.VERSION_MANIFEST, { requested, manifest });
    supported = [manifest];
  } else {
    return undefined;
  }
  return { code: ErrorCode.UNSUPPORTED_API_VERSION, message, data: { requested, supported } };
}

/** Whether the dotted member of the manifest is present and non-empty. */
export function manifestHas(manifest: JsonObject, dotted: string): boolean {
  let value: JsonValue | undefined = manifest;
  for (const part of dotted.split(".")) {
    if (!isObject(value)) return false;
    value = value[part];
  }
  if (value === undefined || value === null || value === false) return false;
  if (Array.isArray(value) || typeof value === "string") return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return true;
}

function refuse(template: string, args: Record<string, string>): HandshakeError {
  const message = fill(template, args);
  return new HandshakeError({ code: ErrorCode.INVALID_PARAMS, message, data: { path: "/protocol/required_features", reason: message } });
}

/**
 * The answered features by the schema's negotiation table: every required one (or a -32602
 * refusal), then each offered optional one this extension can serve, in offer order, once each;
 * a feature whose needs were not accepted is dropped (refused when required).
 */
export function acceptFeatures(api: string, required: string[], optional: string[], handlers: ReadonlySet<string>, manifest: JsonObject): string[] {
  const out: string[] = [];
  for (const f of required) {
    const rule = RULES.get(f);
    if (rule === undefined || !rule.sdk || rule.offer[api] === undefined) throw refuse(NegotiationMessage.REQUIRED_UNSUPPORTED, { feature: f, api });
    if (rule.handler !== undefined && !handlers.has(rule.handler)) throw refuse(NegotiationMessage.REQUIRED_HANDLER, { feature: f, handler: rule.handler });
    if (rule.manifest !== undefined && !manifestHas(manifest, rule.manifest)) throw refuse(NegotiationMessage.REQUIRED_MANIFEST, { feature: f, manifest: rule.manifest });
    if (!out.includes(f)) out.push(f);
  }
  const requiredSet = new Set(out);
  for (const f of optional) {
    const rule = RULES.get(f);
    if (rule === undefined || !rule.sdk || rule.offer[api] === undefined || out.includes(f)) continue;
    if (rule.handler !== undefined && !handlers.has(rule.handler)) continue;
    if (rule.manifest !== undefined && !manifestHas(manifest, rule.manifest)) continue;
    out.push(f);
  }
  // A dropped feature may strand another that needs it: repeat until nothing changes.
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of [...out]) {
      const missing = (RULES.get(f)?.needs ?? []).find((n) => !out.includes(n));
      if (missing === undefined) continue;
      if (requiredSet.has(f)) throw refuse(NegotiationMessage.REQUIRED_NEEDS, { feature: f, needs: missing });
      out.splice(out.indexOf(f), 1);
      changed = true;
    }
  }
  return out;
}

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
  const pinned = opts.pinned ?? opts.env;
  const sent = params["manifest"];
  const declared = isObject(sent) && typeof sent["api_version"] === "string" ? sent["api_version"] : undefined;
  const refusal = selectVersion(requested, pinned, declared);
  if (refusal !== undefined) throw new HandshakeError(refusal);
  const selected = requested;
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
    for (const f of acceptFeatures(api, required, optional, new Set(reg.lifecycle.length > 0 ? ["lifecycle"] : []), manifest)) features.add(f);
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
  if (!features.has(FeatureName.DYNAMIC_TOOLS)) {
    const diff = sameSet(reg.tools.map((t) => t.name), strings(contributes["tools"], "/manifest/contributes/tools"));
    if (diff !== undefined) throw invalid(`tool ${diff} [contributes].tools`);
  }
  const cmdDiff = sameSet(reg.commands.map((c) => c.name), strings(contributes["commands"], "/manifest/contributes/commands"));
  if (cmdDiff !== undefined) throw invalid(`command ${cmdDiff} [contributes].commands`);
  subset(reg.hooks, strings(contributes["hooks"], "/manifest/contributes/hooks"), "hook");
  subset(reg.ui, strings(contributes["ui"], "/manifest/contributes/ui"), "ui surface");
  if (reg.context && contributes["context"] !== true) throw invalid("a context handler is registered but the manifest does not declare [contributes] context = true");
  if (!features.has(FeatureName.DYNAMIC_TOOLS)) subset(reg.renderers, strings(contributes["tool_renderers"], "/manifest/contributes/tool_renderers"), "tool renderer");

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
    if (features.has(FeatureName.LIFECYCLE_EVENTS)) proto["lifecycle_events"] = LIFECYCLE_EVENTS.filter((e) => reg.lifecycle.includes(e));
    result["protocol"] = proto;
  }
  return { api, features, concurrency, maxMessageBytes, maxPending, manifest, name, result };
}
