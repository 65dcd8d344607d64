// A scripted host: drives one extension (in-process or a child process) through the wire,
// answers its reverse calls from a script, and records every frame for inspection.
import { isObject, type Id, type JsonObject, type JsonValue } from "../json.js";
import type { Extension } from "../extension.js";
import type { WireError } from "../errors.js";
import type { ApiVersion } from "../types.js";
import { FEATURE_RULES } from "../generated/features.js";
import { inProcessLink, processLink, type Exit, type Link, type ProcessLinkOptions } from "./links.js";
import { ReverseServices, type HostScript } from "./services.js";
import { Method } from "../generated/methods.js";

export interface Frame {
  /** "in": host → extension; "out": extension → host. */
  dir: "in" | "out";
  /** The parsed frame, or the raw text when it was not JSON. */
  frame: JsonObject | string;
}

export interface Response {
  id: Id | null;
  result?: JsonValue;
  error?: WireError;
}

export interface HostOptions {
  /** The manifest as the host would send it (name, version, api_version, contributes, ...). */
  manifest: JsonObject;
  /** Defaults to the manifest's api_version, else "0.4". */
  apiVersion?: ApiVersion | "0.3";
  /** Offered optional features; defaults to every feature the version knows. */
  optionalFeatures?: string[];
  requiredFeatures?: string[];
  /** Host concurrency limit (default 8). */
  maxConcurrentRequests?: number;
  maxMessageBytes?: number;
  script?: HostScript;
}

/** The offer of a host where every condition holds, per version, from the schema's negotiation table. */
function offerFor(api: string): { required: string[]; optional: string[] } {
  const required = FEATURE_RULES.filter((r) => r.offer[api] === "required").map((r) => r.name);
  const optional = FEATURE_RULES.filter((r) => r.offer[api] === "optional" || r.offer[api] === "conditional").map((r) => r.name);
  return { required, optional };
}

export class ScriptedHost {
  /** Every frame in both directions, in order. */
  readonly frames: Frame[] = [];
  readonly services: ReverseServices;
  private nextId = 1;
  private readonly waiting = new Map<Id, (r: Response) => void>();
  private readonly watchers: { match: (f: JsonObject) => boolean; resolve: (f: JsonObject) => void }[] = [];
  readonly exited: Promise<Exit>;

  private constructor(
    private readonly link: Link,
    readonly options: HostOptions,
  ) {
    const name = String(options.manifest["name"] ?? "");
    this.services = new ReverseServices(options.script ?? {}, name);
    this.exited = link.exited;
    link.onLine((line) => this.receive(line));
  }

  /** Serve `ext` in this process. */
  static inProcess(ext: Extension, options: HostOptions): ScriptedHost {
    return new ScriptedHost(inProcessLink(ext), options);
  }

  /** Spawn a real extension process (e.g. `node dist/extension.js`). */
  static spawn(command: string, args: string[], options: HostOptions & ProcessLinkOptions): ScriptedHost {
    return new ScriptedHost(processLink(command, args, options), options);
  }

  /** The extension's stderr lines (structured logs). */
  get stderr(): readonly string[] {
    return this.link.stderr;
  }

  /** Frames the extension sent, optionally only those with `method`. */
  sent(method?: string): JsonObject[] {
    const out: JsonObject[] = [];
    for (const f of this.frames) {
      if (f.dir === "out" && typeof f.frame === "object" && (method === undefined || f.frame["method"] === method)) out.push(f.frame);
    }
    return out;
  }

  private receive(line: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(line);
    } catch {
      this.frames.push({ dir: "out", frame: line });
      return;
    }
    if (!isObject(frame)) {
      this.frames.push({ dir: "out", frame: line });
      return;
    }
    this.frames.push({ dir: "out", frame });
    for (let i = this.watchers.length - 1; i >= 0; i--) {
      const w = this.watchers[i]!;
      if (w.match(frame)) {
        this.watchers.splice(i, 1);
        w.resolve(frame);
      }
    }
    const id = frame["id"] as Id | undefined;
    if (typeof frame["method"] === "string") {
      if (id !== undefined) void this.serveReverse(id, frame["method"], isObject(frame["params"]) ? frame["params"] : {});
      return;
    }
    if (id !== undefined && id !== null) {
      const resolve = this.waiting.get(id);
      if (resolve) {
        this.waiting.delete(id);
        resolve(frame as unknown as Response);
      }
    }
  }

  private async serveReverse(id: Id, method: string, params: JsonObject): Promise<void> {
    const reply = await this.services.handle(method, params);
    this.write({ jsonrpc: "2.0", id, ...reply } as unknown as JsonObject);
  }

  private write(frame: JsonObject): void {
    this.frames.push({ dir: "in", frame });
    this.link.send(JSON.stringify(frame) + "\n");
  }

  /** Send raw bytes (malformed frames on purpose). */
  sendRaw(text: string): void {
    this.frames.push({ dir: "in", frame: text });
    this.link.send(text);
  }

  /** Resolve with the first extension frame matching `match` (already received or future). */
  waitFor(match: (frame: JsonObject) => boolean): Promise<JsonObject> {
    for (const f of this.frames) if (f.dir === "out" && typeof f.frame === "object" && match(f.frame)) return Promise.resolve(f.frame);
    return new Promise((resolve) => this.watchers.push({ match, resolve }));
  }

  /** Send a request; resolves with the extension's response. `id` overrides the counter. */
  request(method: string, params?: JsonObject, id?: Id): Promise<Response> {
    const rid = id ?? this.nextId++;
    const p = new Promise<Response>((resolve) => this.waiting.set(rid, resolve));
    const frame: JsonObject = { jsonrpc: "2.0", id: rid, method };
    if (params !== undefined) frame["params"] = params;
    this.write(frame);
    return p;
  }

  /** The id the next request() will use (to cancel it). */
  peekNextId(): number {
    return this.nextId;
  }

  notify(method: string, params?: JsonObject): void {
    const frame: JsonObject = { jsonrpc: "2.0", method };
    if (params !== undefined) frame["params"] = params;
    this.write(frame);
  }

  cancel(id: Id): void {
    this.notify(Method.CANCELREQUEST, { id });
  }

  /** The initialize params this host sends (override any top-level field). */
  initializeParams(overrides: JsonObject = {}): JsonObject {
    const o = this.options;
    const api = o.apiVersion ?? ((o.manifest["api_version"] as ApiVersion | undefined) ?? "0.4");
    const params: JsonObject = {
      api_version: api,
      octet_version: "0.8.0",
      extension: {
        name: o.manifest["name"] ?? "", version: o.manifest["version"] ?? "", dir: process.cwd(), manifest_path: "extension.toml", source: "explicit",
      },
      manifest: o.manifest,
      workspace: { root: process.cwd(), trusted: true },
    };
    if (api !== "0.1") {
      const offer = offerFor(api);
      const optional = o.optionalFeatures ?? offer.optional;
      const limits: JsonObject = { max_concurrent_requests: o.maxConcurrentRequests ?? 8 };
      if (o.maxMessageBytes !== undefined) limits["max_message_bytes"] = o.maxMessageBytes;
      params["protocol"] = {
        version: api,
        required_features: o.requiredFeatures ?? offer.required,
        optional_features: optional,
        limits,
      };
    }
    return { ...params, ...overrides };
  }

  /** Send initialize; on success the host's catalog starts as the revision-0 tools. */
  async initialize(overrides: JsonObject = {}): Promise<Response> {
    const response = await this.request(Method.INITIALIZE, this.initializeParams(overrides));
    const tools = isObject(response.result) ? response.result["tools"] : undefined;
    if (Array.isArray(tools)) this.services.catalog = new Set(tools.map((t) => String(isObject(t) ? t["name"] : t)));
    return response;
  }

  /** Call a tool; `extra` adds catalog_revision, resource_owner, call_id. */
  callTool(name: string, args: JsonObject = {}, extra: JsonObject = {}, id?: Id): Promise<Response> {
    return this.request(Method.TOOL_CALL, { name, arguments: args, ...extra }, id);
  }

  shutdown(params: JsonObject = {}): Promise<Response> {
    return this.request(Method.SHUTDOWN, params);
  }

  /** Close the extension's stdin. */
  end(): void {
    this.link.end();
  }

  kill(): void {
    this.link.kill();
  }
}
