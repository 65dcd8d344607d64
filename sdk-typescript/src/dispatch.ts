// Dispatch: the table of host-to-extension methods and the job each one becomes. A job is the
// declared handler bound to its request, plus how its value becomes the answer; admission
// (admission.ts) runs it. The params reaching a builder were already checked against the
// method's generated schema validator (Extension.onRequest), so the builders check only what
// the schema cannot say: whether the named tool, command, hook or surface is declared.
import type { CatalogHistory } from "./catalog.js";
import { normalizeResult01, normalizeResult02 } from "./content.js";
import type { RequestContext } from "./context.js";
import { ValidationError, type WireError } from "./errors.js";
import { resultFault, toolFailure, unknownTool } from "./faults.js";
import { isObject, type Id, type JsonObject, type JsonValue } from "./json.js";
import * as L from "./limits.js";
import type { Logger } from "./log.js";
import type { Registry, ToolEntry } from "./registry.js";
import { invalidArguments, wireExact } from "./schema.js";
import { configureJob } from "./settings.js";
// From the generated modules themselves, not generated/index.js: its re-exports would load
// every generated module (two dozen files, a third of the SDK's start) on start.
import { Dispatch, HOST_ROUTES, dispatchHost, type HostHandlers, type HostRoute } from "./generated/dispatch.js";
import { Method } from "./generated/methods.js";
import type { ApiVersion, ContextCollectParams, RenderParams, StatusCollectParams } from "./types.js";

export interface Job {
  id: Id;
  ctx: RequestContext;
  started: boolean;
  invoke: () => unknown;
  finalize: (value: unknown) => JsonValue;
}

/** What the job builders read: the registry, the live catalogs and how to make a context. */
export interface DispatchState {
  readonly registry: Registry;
  readonly catalogs: CatalogHistory<ToolEntry> | undefined;
  readonly api: ApiVersion;
  newContext(id: Id, method: string, params: JsonObject, revision?: number, callId?: string, idempotencyKey?: string): RequestContext;
}

export function invalidParams(message: string, path?: string): WireError {
  const data: JsonObject = { reason: message };
  if (path !== undefined) data["path"] = path;
  return { code: L.ErrorCode.INVALID_PARAMS, message, data };
}

function job(id: Id, ctx: RequestContext, invoke: () => unknown, finalize: (value: unknown) => JsonValue): Job {
  return { id, ctx, started: false, invoke, finalize };
}

function toolJob(s: DispatchState, id: Id, p: JsonObject): Job | WireError {
  // ToolCallParams: name a string, arguments an object, catalog_revision an integer >= 0.
  const name = p["name"] as string;
  const args = p["arguments"] as JsonObject;
  const rev = p["catalog_revision"] as number | undefined;
  let entry: ToolEntry | undefined;
  if (s.catalogs !== undefined) {
    const catalog = s.catalogs.at(rev);
    if (catalog === undefined) {
      const kept = s.catalogs.retained();
      return invalidParams(`catalog revision ${String(rev)} is unknown or retired (retained: ${kept[0]}..${kept[kept.length - 1]})`, "/catalog_revision");
    }
    entry = catalog.get(name);
  } else {
    entry = s.registry.tools.get(name);
  }
  if (entry === undefined) return unknownTool(name);
  const fault = entry.params.check(args, wireExact);
  if (fault !== null) return invalidArguments(fault);
  const callId = typeof p["call_id"] === "string" ? p["call_id"] : undefined;
  const key = typeof p["idempotency_key"] === "string" ? p["idempotency_key"] : undefined;
  const ctx = s.newContext(id, Method.TOOL_CALL, p, rev, callId, key);
  const handler = entry.handler;
  const schema = entry.def.output_schema;
  const v01 = s.api === "0.1";
  const invoke = (): unknown => {
    let value: unknown;
    try {
      value = handler(args, ctx);
    } catch (err) {
      throw toolFailure(name, err);
    }
    if (value !== null && typeof value === "object" && typeof (value as Promise<unknown>).then === "function") {
      return (value as Promise<unknown>).then(undefined, (err: unknown) => {
        throw toolFailure(name, err);
      });
    }
    return value;
  };
  return job(id, ctx, invoke, (value) => {
    try {
      return (v01 ? normalizeResult01(value, name) : normalizeResult02(value, schema, name)) as unknown as JsonValue;
    } catch (err) {
      throw resultFault(err);
    }
  });
}

function commandJob(s: DispatchState, id: Id, p: JsonObject): Job | WireError {
  // CommandExecuteParams: name a string, arguments an array of strings.
  const name = p["name"] as string;
  const args = p["arguments"] as string[];
  const cmd = s.registry.commands.get(name);
  if (cmd === undefined) return invalidParams(`unknown command '${name}'`, "/name");
  const ctx = s.newContext(id, Method.COMMAND_EXECUTE, p);
  return job(id, ctx, () => cmd.handler(args, ctx), (value) => {
    if (typeof value === "string") return { text: value };
    if (isObject(value) && typeof value["text"] === "string") return value;
    throw new ValidationError(`command '${name}' must return a string or {text, is_error?}`);
  });
}

function hookJob(s: DispatchState, id: Id, p: JsonObject): Job | WireError {
  // HookRunParams: hook a known hook name, payload the object that hook point takes.
  const hook = p["hook"] as string;
  const payload = p["payload"] as JsonObject;
  const handler = s.registry.hooks.get(hook);
  if (handler === undefined) return invalidParams(`no handler for hook '${hook}'`, "/hook");
  const ctx = s.newContext(id, Method.HOOK_RUN, p);
  return job(id, ctx, () => handler(payload as never, ctx), (value) => {
    if (value === undefined || value === null) return {};
    if (!isObject(value)) throw new ValidationError(`hook '${hook}' must return an object or nothing`);
    return value;
  });
}

function contextJob(s: DispatchState, id: Id, p: JsonObject): Job | WireError {
  const handler = s.registry.contextHandler;
  if (handler === undefined) return invalidParams("no context handler is registered");
  const ctx = s.newContext(id, Method.CONTEXT_COLLECT, p);
  return job(id, ctx, () => handler(p as ContextCollectParams, ctx), (value) => {
    const items = Array.isArray(value) ? value : isObject(value) ? value["items"] : undefined;
    if (!Array.isArray(items)) throw new ValidationError("context handler must return an array of items or {items}");
    return { items };
  });
}

function statusJob(s: DispatchState, id: Id, p: JsonObject): Job | WireError {
  const surface = p["surface"];
  if (typeof surface !== "string") return invalidParams("status/collect needs a string 'surface'", "/surface");
  const handler = s.registry.statuses.get(surface);
  if (handler === undefined) return invalidParams(`no status handler for surface '${surface}'`, "/surface");
  const ctx = s.newContext(id, Method.STATUS_COLLECT, p);
  return job(id, ctx, () => handler(p as unknown as StatusCollectParams, ctx), (value) => {
    if (!isObject(value) || typeof value["text"] !== "string") throw new ValidationError("status handler must return {surface, text, priority}");
    if ([...value["text"]].length > 1024) throw new ValidationError("status text is longer than 1024 chars", "/text");
    return value;
  });
}

function renderJob(s: DispatchState, id: Id, p: JsonObject): Job | WireError {
  const name = p["name"];
  if (typeof name !== "string") return invalidParams("tool/render needs a string 'name'", "/name");
  const handler = s.registry.renderers.get(name);
  if (handler === undefined) return invalidParams(`no renderer for tool '${name}'`, "/name");
  const ctx = s.newContext(id, Method.TOOL_RENDER, p);
  return job(id, ctx, () => handler(p as unknown as RenderParams, ctx), (value) => {
    if (!isObject(value) || !Array.isArray(value["segments"])) throw new ValidationError("renderer must return {segments}");
    return value;
  });
}

/** What a handler of the generated dispatch table gets: the request id (0 for a notification), method and params. */
export interface HostCall {
  readonly id: Id;
  readonly method: string;
  readonly params: JsonObject;
}

/** What the session serves itself: the handshake, shutdown, cancellation and lifecycle events. */
export interface SessionMethods {
  initialize(id: Id, params: JsonObject): void;
  shutdown(id: Id, params: JsonObject): void;
  cancel(params: JsonObject): void;
  observe(method: string, params: JsonObject): void;
}

/**
 * The generated dispatch table's handlers: one member per method the schema says an extension
 * receives, so a method added to schema/methods.json without one here fails to compile. Work
 * methods become jobs; the rest go to the session.
 */
export function hostHandlers(s: DispatchState, session: SessionMethods): HostHandlers<HostCall> {
  return {
    initialize: (c) => session.initialize(c.id, c.params),
    shutdown: (c) => session.shutdown(c.id, c.params),
    cancelRequest: (c) => session.cancel(c.params),
    toolCall: (c) => toolJob(s, c.id, c.params),
    commandExecute: (c) => commandJob(s, c.id, c.params),
    hookRun: (c) => hookJob(s, c.id, c.params),
    contextCollect: (c) => contextJob(s, c.id, c.params),
    statusCollect: (c) => statusJob(s, c.id, c.params),
    toolRender: (c) => renderJob(s, c.id, c.params),
    configure: (c) => configureJob(s, c.id, c.params),
    sessionStarted: (c) => session.observe(c.method, c.params),
    sessionSettled: (c) => session.observe(c.method, c.params),
    turnStarted: (c) => session.observe(c.method, c.params),
    turnSettled: (c) => session.observe(c.method, c.params),
    toolStarted: (c) => session.observe(c.method, c.params),
    toolSettled: (c) => session.observe(c.method, c.params),
  };
}

/** The generated route of a method the host sends, if the schema knows it. */
export function routeOf(method: string): HostRoute | undefined {
  return Object.hasOwn(HOST_ROUTES, method) ? HOST_ROUTES[method] : undefined;
}

/** The job for a host work request whose params passed the schema, or the error that answers it. */
export function dispatch(handlers: HostHandlers<HostCall>, id: Id, method: string, params: JsonObject): Job | WireError {
  if (routeOf(method)?.dispatch !== Dispatch.WORK) return { code: L.ErrorCode.METHOD_NOT_FOUND, message: `method not found: ${method}`, data: { method } };
  return dispatchHost(handlers, method, { id, method, params })!.value as Job | WireError;
}

/**
 * The lifecycle observations (session/turn/tool started and settled), queued as they arrive.
 */
export class LifecycleQueue {
  private readonly queue: (() => unknown)[] = [];
  private running = false;

  constructor(private readonly log: Logger) {}

  push(tasks: (() => unknown)[]): void {
    this.queue.push(...tasks);
    if (!this.running) this.drain();
  }

  /**
   * Observations run in arrival order, one at a time, outside the request pool. Synchronous
   * handlers run at once (so a request that follows sees their effect); an async one holds
   * back the rest until it settles.
   */
  private drain(): void {
    this.running = true;
    while (this.queue.length > 0) {
      const task = this.queue.shift()!;
      let result: unknown;
      try {
        result = task();
      } catch (err) {
        this.log.error("lifecycle handler failed", { error: String(err) });
        continue;
      }
      if (result !== null && typeof result === "object" && typeof (result as Promise<unknown>).then === "function") {
        (result as Promise<unknown>).then(
          () => this.drain(),
          (err: unknown) => {
            this.log.error("lifecycle handler failed", { error: String(err) });
            this.drain();
          },
        );
        return;
      }
    }
    this.running = false;
  }
}
