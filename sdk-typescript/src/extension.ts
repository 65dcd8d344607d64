// The Extension: registration of contributions, and the runtime that serves them. The reader
// only decodes and queues; handlers run on a bounded pool behind an admission queue; the
// connection is the single writer. See docs/typescript.md for the author's view.
import { CatalogHistory } from "./catalog.js";
import { normalizeResult01, normalizeResult02 } from "./content.js";
import { RequestContext, currentContext, progressParams, withContext, type ContextRuntime, type ProgressEvent, type StatusProgress } from "./context.js";
import { ProtocolError, ValidationError, toWireError, type WireError } from "./errors.js";
import { resultFault, toolFailure, unknownTool } from "./faults.js";
import { isObject, type Id, type JsonObject, type JsonValue } from "./json.js";
import * as L from "./limits.js";
import { Logger } from "./log.js";
import { HandshakeError, negotiate, type Negotiated } from "./negotiate.js";
import { Connection } from "./rpc.js";
import { Dispatch, EVENT_METHODS, FeatureName, HOST_ROUTES, Method, dispatchHost, type HostHandlers } from "./generated/index.js";
import { checkWire, requestParamsType, reverseResultType } from "./wirecheck.js";
import { compileToolSchema, invalidArguments, wireFloat, type CompiledSchema, type Infer, type JsonSchema } from "./schema.js";
import { HostServices } from "./services.js";
import { StdioTransport, protectStdout } from "./stdio.js";
import type { Transport } from "./transport.js";
import type {
  ApiVersion, CatalogUpdate, CommandResult, ContextCollectParams, ContextItem, HookName, HookPayloads, HookResult, LifecycleEvent,
  LifecycleMethod, RenderParams, RenderResult, ResourceOwner, ShutdownParams, StatusCollectParams, StatusResult, Surface, ToolDefinition,
  ToolReturn,
} from "./types.js";

type Awaitable<T> = T | Promise<T>;

export interface ExtensionOptions {
  /** Pin the API version; otherwise OCTET_EXTENSION_API_VERSION, else whatever initialize asks. */
  apiVersion?: ApiVersion;
  /** Worker pool size (capped by the host's limit; API 0.1 always uses 1). Default 16. */
  maxConcurrentRequests?: number;
  /** Admission queue length between the reader and the pool. Default 64. */
  maxPendingRequests?: number;
  /** Frame bound for both directions. Default MAX_MESSAGE_BYTES (1 MiB). */
  maxMessageBytes?: number;
  /** Drain budget on stdin EOF and default shutdown deadline. Default SHUTDOWN_DRAIN_MS. */
  shutdownDrainMs?: number;
}

export interface ToolSpec<P extends JsonSchema = JsonSchema> {
  name: string;
  description: string;
  parameters?: P;
  outputSchema?: JsonSchema;
}

export type ToolHandler<A> = (args: A, ctx: RequestContext) => Awaitable<ToolReturn>;
export type CommandHandler = (args: string[], ctx: RequestContext) => Awaitable<string | CommandResult>;
export type HookHandler<H extends HookName> = (payload: HookPayloads[H], ctx: RequestContext) => Awaitable<HookResult | void>;
export type ContextHandler = (params: ContextCollectParams, ctx: RequestContext) => Awaitable<ContextItem[] | { items: ContextItem[] }>;
export type StatusHandler = (params: StatusCollectParams, ctx: RequestContext) => Awaitable<StatusResult>;
export type RendererHandler = (params: RenderParams, ctx: RequestContext) => Awaitable<RenderResult>;
export type LifecycleHandler = (event: LifecycleEvent, method: LifecycleMethod) => Awaitable<void>;
export type ShutdownHandler = (params: ShutdownParams) => Awaitable<void>;

/** A tool's argument type: explicit `A`, else inferred from `parameters`, else any JSON object. */
export type ArgsOf<A, P> = [A] extends [never] ? (JsonSchema extends P ? JsonObject : Infer<P>) : A;

/** A dynamic tool: its definition plus the handler that serves it. */
export interface DynamicTool<P extends JsonSchema = JsonSchema> extends ToolSpec<P> {
  handler: ToolHandler<ArgsOf<never, P>>;
}

interface ToolEntry {
  def: ToolDefinition;
  handler: ToolHandler<JsonObject>;
  /** `parameters`, compiled when the tool was defined. */
  params: CompiledSchema;
}

interface Job {
  id: Id;
  ctx: RequestContext;
  started: boolean;
  invoke: () => unknown;
  finalize: (value: unknown) => JsonValue;
}

/** How serve() ended: the exit code run() uses, and why. */
export interface ServeResult {
  reason: "shutdown" | "eof" | "fault";
  code: number;
  detail: string;
}

const LIFECYCLE: ReadonlySet<string> = EVENT_METHODS;

/** What a generated dispatch table handler gets: the request id (absent for a notification) and params. */
interface HostCall {
  readonly id: Id;
  readonly method: string;
  readonly params: JsonObject;
}
const EMPTY_SCHEMA: JsonSchema = { type: "object", properties: {} };
const SHUTDOWN_HOOK_FLOOR_MS = 100;

function lifecycleName(name: string): LifecycleMethod {
  const slash = name.includes("/") ? name : name.replace("_", "/");
  if (!LIFECYCLE.has(slash)) throw new ValidationError(`unknown lifecycle event '${name}'; use session/turn/tool + started/settled (slash or underscore)`);
  return slash as LifecycleMethod;
}

function ownerOf(params: JsonObject): ResourceOwner | undefined {
  const o = params["resource_owner"];
  return isObject(o) ? (o as unknown as ResourceOwner) : undefined;
}

function invalidParams(message: string, path?: string): WireError {
  const data: JsonObject = { reason: message };
  if (path !== undefined) data["path"] = path;
  return { code: L.ErrorCode.INVALID_PARAMS, message, data };
}

export class Extension extends HostServices {
  readonly log = new Logger();
  private readonly options: Required<Omit<ExtensionOptions, "apiVersion">> & { apiVersion: ApiVersion | undefined };

  private readonly tools = new Map<string, ToolEntry>();
  private readonly commands = new Map<string, { def: { name: string; description: string }; handler: CommandHandler }>();
  private readonly hooks = new Map<string, HookHandler<HookName>>();
  private readonly statuses = new Map<string, StatusHandler>();
  private readonly renderers = new Map<string, RendererHandler>();
  private readonly lifecycle = new Map<LifecycleMethod, LifecycleHandler[]>();
  private readonly shutdownHandlers: ShutdownHandler[] = [];
  private contextHandler: ContextHandler | undefined;

  private conn: Connection | undefined;
  private session: Negotiated | undefined;
  protected negotiated: ReadonlySet<string> = new Set();
  private concurrency = 1;
  private pendingLimit: number;
  private catalogs: CatalogHistory<ToolEntry> | undefined;
  private catalogLock: Promise<unknown> = Promise.resolve();

  private readonly inflight = new Map<Id, Job>();
  private readonly queue: Job[] = [];
  private running = 0;
  private stopping = false;
  private drainWaiters: (() => void)[] = [];
  private readonly lifecycleQueue: (() => unknown)[] = [];
  private lifecycleRunning = false;
  private finishServe: ((r: ServeResult) => void) | undefined;
  private shutdownInProgress: Promise<void> | undefined;

  constructor(options: ExtensionOptions = {}) {
    super();
    this.options = {
      apiVersion: options.apiVersion,
      maxConcurrentRequests: options.maxConcurrentRequests ?? 32,
      maxPendingRequests: options.maxPendingRequests ?? L.MAX_PENDING_REQUESTS,
      maxMessageBytes: options.maxMessageBytes ?? L.MAX_MESSAGE_BYTES,
      shutdownDrainMs: options.shutdownDrainMs ?? L.SHUTDOWN_DRAIN_MS,
    };
    if (options.apiVersion !== undefined && !["0.1", "0.2", "0.4"].includes(options.apiVersion)) {
      throw new ValidationError(`apiVersion ${JSON.stringify(options.apiVersion)} is not one of 0.1, 0.2, 0.4 (0.3 is a distinct wire)`);
    }
    for (const key of ["maxConcurrentRequests", "maxPendingRequests", "maxMessageBytes"] as const) {
      const v = this.options[key];
      if (!Number.isSafeInteger(v) || v < 1) throw new ValidationError(`${key} must be an integer ≥ 1, got ${String(v)}`);
    }
    this.pendingLimit = this.options.maxPendingRequests;
  }

  // ---- registration

  /**
   * Register a tool. The handler's argument type follows from `parameters` (declare it inline or
   * `as const`), or give it explicitly: `ext.tool<{ name: string }>(...)`. Arguments are
   * checked against `parameters` before the handler runs; a mismatch answers -32602.
   */
  tool<A = never, const P extends JsonSchema = JsonSchema>(spec: ToolSpec<P>, handler: ToolHandler<ArgsOf<A, P>>): this {
    this.beforeServing("tool");
    const entry = this.makeEntry(spec, handler as ToolHandler<unknown> as ToolHandler<JsonObject>);
    if (this.tools.has(spec.name)) throw new ValidationError(`tool '${spec.name}' is registered twice`);
    if (this.tools.size >= L.MAX_CATALOG_TOOLS) throw new ValidationError(`more than ${L.MAX_CATALOG_TOOLS} tools`);
    this.tools.set(spec.name, entry);
    return this;
  }

  command(spec: { name: string; description: string }, handler: CommandHandler): this {
    this.beforeServing("command");
    if (!/^[a-z][a-z0-9_-]{0,63}$/.test(spec.name)) throw new ValidationError(`command name ${JSON.stringify(spec.name)} must match ^[a-z][a-z0-9_-]{0,63}$`);
    if (this.commands.has(spec.name)) throw new ValidationError(`command '${spec.name}' is registered twice`);
    this.commands.set(spec.name, { def: { name: spec.name, description: spec.description }, handler });
    return this;
  }

  hook<H extends HookName>(name: H, handler: HookHandler<H>): this {
    this.beforeServing("hook");
    if (this.hooks.has(name)) throw new ValidationError(`hook '${name}' is registered twice`);
    this.hooks.set(name, handler as unknown as HookHandler<HookName>);
    return this;
  }

  context(handler: ContextHandler): this {
    this.beforeServing("context");
    this.contextHandler = handler;
    return this;
  }

  status(surface: Surface, handler: StatusHandler): this {
    this.beforeServing("status");
    if (!["status", "header", "footer"].includes(surface)) throw new ValidationError(`ui surface must be status, header or footer, got ${JSON.stringify(surface)}`);
    this.statuses.set(surface, handler);
    return this;
  }

  renderer(toolName: string, handler: RendererHandler): this {
    this.beforeServing("renderer");
    this.renderers.set(toolName, handler);
    return this;
  }

  /** Observe a lifecycle event ("turn/settled" or "turn_settled"). Observations cannot veto. */
  onLifecycle(event: string, handler: LifecycleHandler): this {
    this.beforeServing("onLifecycle");
    const method = lifecycleName(event);
    const list = this.lifecycle.get(method) ?? [];
    list.push(handler);
    this.lifecycle.set(method, list);
    return this;
  }

  /** Run at shutdown (and stdin EOF) after the drain, bounded by the remaining deadline. */
  onShutdown(handler: ShutdownHandler): this {
    this.shutdownHandlers.push(handler);
    return this;
  }

  private beforeServing(what: string): void {
    if (this.conn !== undefined) throw new ValidationError(`${what}() must be called before run(); use registerTool for tools added later`);
  }

  private makeEntry(spec: ToolSpec, handler: ToolHandler<JsonObject>): ToolEntry {
    if (typeof spec.name !== "string" || !/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/.test(spec.name)) {
      throw new ValidationError(`tool name ${JSON.stringify(spec.name)} must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`);
    }
    if (typeof spec.description !== "string" || [...spec.description].length > 4096) {
      throw new ValidationError(`tool '${spec.name}' description must be a string of at most 4096 chars`);
    }
    if (typeof handler !== "function") throw new ValidationError(`tool '${spec.name}' needs a handler function`);
    const def: ToolDefinition = { name: spec.name, description: spec.description, parameters: spec.parameters ?? EMPTY_SCHEMA };
    // Both schemas compile now, so a bad one is refused here and never at call time.
    const params = compileToolSchema(spec.name, "parameters", def.parameters as JsonSchema);
    if (spec.outputSchema !== undefined) {
      compileToolSchema(spec.name, "output_schema", spec.outputSchema);
      def.output_schema = spec.outputSchema;
    }
    return { def, handler, params };
  }

  // ---- state after initialize

  /** The features negotiated with the host (empty before initialize and on API 0.1). */
  get negotiatedFeatures(): ReadonlySet<string> {
    return this.negotiated;
  }

  /** The worker pool size agreed with the host. */
  get negotiatedConcurrency(): number {
    return this.concurrency;
  }

  /** The API version in use, once initialized. */
  get negotiatedApiVersion(): ApiVersion | undefined {
    return this.session?.api;
  }

  /** The last committed dynamic catalog epoch (0 after initialize). */
  get toolCatalogRevision(): number {
    return this.catalogs?.revision ?? 0;
  }

  protected apiVersion(): ApiVersion | undefined {
    return this.session?.api;
  }

  protected extensionName(): string {
    return this.session?.name ?? "";
  }

  protected manifestFlag(name: string): boolean {
    const c = this.session?.manifest["contributes"];
    return isObject(c) && c[name] === true;
  }

  protected send(method: string, params: JsonObject): void {
    if (this.conn === undefined || this.session === undefined) throw new ValidationError(`${method} can only be sent after initialize`);
    this.conn.notify(method, params);
  }

  protected async call(method: string, params: JsonObject, signal?: AbortSignal): Promise<JsonValue> {
    if (this.conn === undefined || this.session === undefined) throw new ValidationError(`${method} can only be sent after initialize`);
    const result = await this.conn.request(method, params, signal);
    // The host's answer is checked against the schema before any SDK code trusts its shape.
    const type = reverseResultType(method, this.session.api);
    const fault = type === undefined ? undefined : checkWire(type, result);
    if (fault !== undefined) throw new ProtocolError(`${method} result does not match the schema: ${fault.message}`);
    return result;
  }

  /**
   * Progress for the handler currently running (the ambient context); the same as
   * `ctx.progress(...)`. Outside a handler there is no parent to report on: it throws.
   */
  progress(event: ProgressEvent | StatusProgress): boolean {
    const ctx = currentContext();
    if (ctx === undefined) throw new ValidationError("progress() needs a running handler; use ctx.progress inside one");
    return ctx.progress(event);
  }

  // ---- dynamic tools

  /** Register or replace one tool at runtime (needs dynamic_tools). */
  registerTool<const P extends JsonSchema = JsonSchema>(tool: DynamicTool<P>): Promise<CatalogUpdate> {
    return this.registerTools([tool as unknown as DynamicTool]);
  }

  /** Register or replace several tools in one transactional request. */
  async registerTools(tools: DynamicTool[]): Promise<CatalogUpdate> {
    this.require(FeatureName.DYNAMIC_TOOLS, "registerTools");
    if (tools.length < 1 || tools.length > L.MAX_TOOLS_PER_REQUEST) throw new ValidationError(`registerTools takes 1..${L.MAX_TOOLS_PER_REQUEST} tools, got ${tools.length}`);
    const entries = tools.map((t) => this.makeEntry(t, t.handler as unknown as ToolHandler<JsonObject>));
    return this.mutateCatalog(Method.TOOLS_REGISTER, { tools: entries.map((e) => e.def) as unknown as JsonValue[] }, (next) => {
      for (const e of entries) next.set(e.def.name, e);
    });
  }

  unregisterTool(name: string): Promise<CatalogUpdate> {
    return this.unregisterTools(name);
  }

  /** Remove tools in one request; absent names are harmless. */
  async unregisterTools(...names: string[]): Promise<CatalogUpdate> {
    this.require(FeatureName.DYNAMIC_TOOLS, "unregisterTools");
    if (names.length < 1 || names.length > L.MAX_TOOLS_PER_REQUEST) throw new ValidationError(`unregisterTools takes 1..${L.MAX_TOOLS_PER_REQUEST} names, got ${names.length}`);
    return this.mutateCatalog(Method.TOOLS_UNREGISTER, { names }, (next) => {
      for (const n of names) next.delete(n);
    });
  }

  private mutateCatalog(method: string, params: JsonObject, change: (next: Map<string, ToolEntry>) => void): Promise<CatalogUpdate> {
    // One mutation at a time: each must be acknowledged before the next is staged.
    const run = async (): Promise<CatalogUpdate> => {
      const history = this.catalogs!;
      const next = new Map(history.current);
      change(next);
      if (next.size > L.MAX_CATALOG_TOOLS) throw new ValidationError(`the catalog would hold ${next.size} tools; at most ${L.MAX_CATALOG_TOOLS}`);
      history.stage(next);
      let ack: JsonValue;
      try {
        ack = await this.call(method, params);
      } catch (err) {
        history.abort();
        throw err;
      }
      if (!isObject(ack) || !Number.isSafeInteger(ack["revision"]) || !Array.isArray(ack["tools"])) {
        history.abort();
        throw new ProtocolError(`${method} result must be {revision, tools}`);
      }
      const revision = ack["revision"] as number;
      const accepted = (ack["tools"] as JsonValue[]).filter((t): t is string => typeof t === "string");
      history.commit(revision, accepted);
      return { revision, tools: accepted };
    };
    const result = this.catalogLock.then(run, run);
    this.catalogLock = result.catch(() => undefined);
    return result;
  }

  // ---- serving

  /**
   * Serve the host over stdio until shutdown or stdin EOF, then exit the process.
   * Protects the protocol stream first (see docs/typescript.md, "Protecting stdout").
   */
  async run(): Promise<never> {
    const out = protectStdout();
    if (!out.redirected) this.log.warning("stdout is only partly protected", { note: out.note });
    const result = await this.serve(new StdioTransport(out.fd));
    process.exit(result.code);
  }

  /** Serve over any transport (the testing helper uses an in-memory one). Resolves when done. */
  serve(transport: Transport): Promise<ServeResult> {
    if (this.conn !== undefined) throw new ValidationError("serve() can only be called once per Extension");
    const conn = new Connection(
      transport,
      {
        request: (id, method, params) => this.onRequest(id, method, params),
        notification: (method, params) => this.onNotification(method, params),
        closed: (kind, reason) => this.onClosed(kind, reason),
      },
      this.log,
      this.options.maxMessageBytes,
    );
    this.conn = conn;
    const done = new Promise<ServeResult>((resolve) => {
      this.finishServe = resolve;
    });
    conn.start();
    return done;
  }

  private end(result: ServeResult): void {
    const finish = this.finishServe;
    this.finishServe = undefined;
    finish?.(result);
  }

  private onRequest(id: Id, method: string, params: JsonObject | undefined): void {
    const conn = this.conn!;
    if (this.inflight.has(id)) {
      conn.writeError(id, { code: L.ErrorCode.INVALID_REQUEST, message: `request id ${JSON.stringify(id)} is already in flight` });
      return;
    }
    const route = Object.hasOwn(HOST_ROUTES, method) ? HOST_ROUTES[method] : undefined;
    if (route?.dispatch === Dispatch.HANDSHAKE) return this.initialize(id, params);
    if (this.session === undefined) {
      conn.writeError(id, { code: L.ErrorCode.INVALID_REQUEST, message: `${method} before initialize: the first request must be initialize` });
      return;
    }
    if (this.stopping) {
      conn.writeError(id, { code: L.ErrorCode.SHUTTING_DOWN, message: `extension is shutting down; ${method} refused` });
      return;
    }
    const p = params ?? {};
    const type = requestParamsType(method, this.session.api);
    if (type !== undefined) {
      const fault = checkWire(type, p);
      if (fault !== undefined) {
        conn.writeError(id, invalidParams(`invalid ${method} params: ${fault.message}`, fault.path));
        return;
      }
    }
    if (route?.dispatch === Dispatch.SHUTDOWN) return this.shutdown(id, p);
    const routed = route?.dispatch === Dispatch.WORK ? dispatchHost(this.hostHandlers, method, { id, method, params: p }) : undefined;
    const job = routed !== undefined
      ? (routed.value as Job | WireError)
      : { code: L.ErrorCode.METHOD_NOT_FOUND, message: `method not found: ${method}`, data: { method } };
    if (!("ctx" in job)) {
      conn.writeError(id, job);
      return;
    }
    this.admit(job);
  }

  private newContext(id: Id, method: string, params: JsonObject, revision?: number, callId?: string): RequestContext {
    const parent = this.session!.api === "0.1" ? undefined : id;
    return new RequestContext(this.runtimeView, id, method, ownerOf(params), parent, revision, callId);
  }

  private readonly runtimeView: ContextRuntime = ((ext: Extension): ContextRuntime => ({
    get features(): ReadonlySet<string> {
      return ext.negotiated;
    },
    log: ext.log,
    sendProgress: (parent: Id, sequence: number, event: ProgressEvent) => {
      ext.conn?.notify(Method.PROGRESS, progressParams(parent, sequence, event));
    },
  }))(this);

  /**
   * The generated dispatch table's handlers: one member per method the schema says an
   * extension receives, so a method added to schema/methods.json without one fails to compile.
   */
  private readonly hostHandlers: HostHandlers<HostCall> = {
    initialize: (c) => this.initialize(c.id, c.params),
    shutdown: (c) => this.shutdown(c.id, c.params),
    cancelRequest: (c) => this.cancelFromHost(c.params),
    toolCall: (c) => this.toolJob(c.id, c.params),
    commandExecute: (c) => this.commandJob(c.id, c.params),
    hookRun: (c) => this.hookJob(c.id, c.params),
    contextCollect: (c) => this.contextJob(c.id, c.params),
    statusCollect: (c) => this.statusJob(c.id, c.params),
    toolRender: (c) => this.renderJob(c.id, c.params),
    sessionStarted: (c) => this.observe(c.method, c.params),
    sessionSettled: (c) => this.observe(c.method, c.params),
    turnStarted: (c) => this.observe(c.method, c.params),
    turnSettled: (c) => this.observe(c.method, c.params),
    toolStarted: (c) => this.observe(c.method, c.params),
    toolSettled: (c) => this.observe(c.method, c.params),
  };

  private toolJob(id: Id, p: JsonObject): Job | WireError {
    const name = p["name"];
    if (typeof name !== "string") return invalidParams("tool/call needs a string 'name'", "/name");
    const args = p["arguments"];
    if (!isObject(args)) return invalidParams("tool/call 'arguments' must be an object", "/arguments");
    const rev = p["catalog_revision"];
    if (rev !== undefined && !(typeof rev === "number" && Number.isSafeInteger(rev) && rev >= 0)) {
      return invalidParams("catalog_revision must be an integer ≥ 0", "/catalog_revision");
    }
    let entry: ToolEntry | undefined;
    if (this.catalogs !== undefined) {
      const catalog = this.catalogs.at(rev as number | undefined);
      if (catalog === undefined) {
        const kept = this.catalogs.retained();
        return invalidParams(`catalog revision ${String(rev)} is unknown or retired (retained: ${kept[0]}..${kept[kept.length - 1]})`, "/catalog_revision");
      }
      entry = catalog.get(name);
    } else {
      entry = this.tools.get(name);
    }
    if (entry === undefined) return unknownTool(name);
    const fault = entry.params.check(args, wireFloat);
    if (fault !== null) return invalidArguments(fault);
    const callId = typeof p["call_id"] === "string" ? p["call_id"] : undefined;
    const ctx = this.newContext(id, Method.TOOL_CALL, p, rev as number | undefined, callId);
    const handler = entry.handler;
    const schema = entry.def.output_schema;
    const v01 = this.session!.api === "0.1";
    return {
      id,
      ctx,
      started: false,
      invoke: () => {
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
      },
      finalize: (value) => {
        try {
          return (v01 ? normalizeResult01(value, name) : normalizeResult02(value, schema, name)) as unknown as JsonValue;
        } catch (err) {
          throw resultFault(err);
        }
      },
    };
  }

  private commandJob(id: Id, p: JsonObject): Job | WireError {
    const name = p["name"];
    const args = p["arguments"];
    if (typeof name !== "string") return invalidParams("command/execute needs a string 'name'", "/name");
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return invalidParams("command/execute 'arguments' must be an array of strings", "/arguments");
    const cmd = this.commands.get(name);
    if (cmd === undefined) return invalidParams(`unknown command '${name}'`, "/name");
    const ctx = this.newContext(id, Method.COMMAND_EXECUTE, p);
    return {
      id,
      ctx,
      started: false,
      invoke: () => cmd.handler(args as string[], ctx),
      finalize: (value) => {
        if (typeof value === "string") return { text: value };
        if (isObject(value) && typeof value["text"] === "string") return value;
        throw new ValidationError(`command '${name}' must return a string or {text, is_error?}`);
      },
    };
  }

  private hookJob(id: Id, p: JsonObject): Job | WireError {
    const hook = p["hook"];
    const payload = p["payload"];
    if (typeof hook !== "string") return invalidParams("hook/run needs a string 'hook'", "/hook");
    if (!isObject(payload)) return invalidParams("hook/run 'payload' must be an object", "/payload");
    const handler = this.hooks.get(hook);
    if (handler === undefined) return invalidParams(`no handler for hook '${hook}'`, "/hook");
    const ctx = this.newContext(id, Method.HOOK_RUN, p);
    return {
      id,
      ctx,
      started: false,
      invoke: () => handler(payload as never, ctx),
      finalize: (value) => {
        if (value === undefined || value === null) return {};
        if (!isObject(value)) throw new ValidationError(`hook '${hook}' must return an object or nothing`);
        return value;
      },
    };
  }

  private contextJob(id: Id, p: JsonObject): Job | WireError {
    const handler = this.contextHandler;
    if (handler === undefined) return invalidParams("no context handler is registered");
    const ctx = this.newContext(id, Method.CONTEXT_COLLECT, p);
    return {
      id,
      ctx,
      started: false,
      invoke: () => handler(p as ContextCollectParams, ctx),
      finalize: (value) => {
        const items = Array.isArray(value) ? value : isObject(value) ? value["items"] : undefined;
        if (!Array.isArray(items)) throw new ValidationError("context handler must return an array of items or {items}");
        return { items };
      },
    };
  }

  private statusJob(id: Id, p: JsonObject): Job | WireError {
    const surface = p["surface"];
    if (typeof surface !== "string") return invalidParams("status/collect needs a string 'surface'", "/surface");
    const handler = this.statuses.get(surface);
    if (handler === undefined) return invalidParams(`no status handler for surface '${surface}'`, "/surface");
    const ctx = this.newContext(id, Method.STATUS_COLLECT, p);
    return {
      id,
      ctx,
      started: false,
      invoke: () => handler(p as unknown as StatusCollectParams, ctx),
      finalize: (value) => {
        if (!isObject(value) || typeof value["text"] !== "string") throw new ValidationError("status handler must return {surface, text, priority}");
        if ([...value["text"]].length > 1024) throw new ValidationError("status text is longer than 1024 chars", "/text");
        return value;
      },
    };
  }

  private renderJob(id: Id, p: JsonObject): Job | WireError {
    const name = p["name"];
    if (typeof name !== "string") return invalidParams("tool/render needs a string 'name'", "/name");
    const handler = this.renderers.get(name);
    if (handler === undefined) return invalidParams(`no renderer for tool '${name}'`, "/name");
    const ctx = this.newContext(id, Method.TOOL_RENDER, p);
    return {
      id,
      ctx,
      started: false,
      invoke: () => handler(p as unknown as RenderParams, ctx),
      finalize: (value) => {
        if (!isObject(value) || !Array.isArray(value["segments"])) throw new ValidationError("renderer must return {segments}");
        return value;
      },
    };
  }

  // ---- admission, pool, answers

  private admit(job: Job): void {
    const conn = this.conn!;
    if (this.inflight.size >= L.MAX_IN_FLIGHT) {
      conn.writeError(job.id, { code: L.ErrorCode.OVERLOADED, message: `overloaded: ${L.MAX_IN_FLIGHT} requests already in flight`, data: { limit: L.MAX_IN_FLIGHT } });
      return;
    }
    if (this.running < this.concurrency) {
      this.inflight.set(job.id, job);
      this.start(job);
    } else if (this.queue.length < this.pendingLimit) {
      this.inflight.set(job.id, job);
      this.queue.push(job);
    } else {
      conn.writeError(job.id, { code: L.ErrorCode.OVERLOADED, message: `overloaded: the admission queue of ${this.pendingLimit} is full`, data: { limit: this.pendingLimit } });
    }
  }

  private start(job: Job): void {
    this.running++;
    job.started = true;
    let value: unknown;
    try {
      value = withContext(job.ctx, job.invoke);
    } catch (err) {
      this.settle(job, undefined, err, true);
      return;
    }
    if (value !== null && typeof value === "object" && typeof (value as Promise<unknown>).then === "function") {
      (value as Promise<unknown>).then(
        (v) => this.settle(job, v, undefined, false),
        (e: unknown) => this.settle(job, undefined, e, true),
      );
    } else {
      this.settle(job, value, undefined, false);
    }
  }

  private settle(job: Job, value: unknown, err: unknown, failed: boolean): void {
    this.running--;
    if (!job.ctx.settled) {
      job.ctx.settled = true;
      this.inflight.delete(job.id);
      if (failed) this.answerError(job, err);
      else {
        let result: JsonValue;
        try {
          result = job.finalize(value);
        } catch (e) {
          this.answerError(job, e);
          this.pump();
          return;
        }
        this.conn!.respond(job.id, result);
      }
    }
    this.pump();
  }

  private answerError(job: Job, err: unknown): void {
    const wire = toWireError(err);
    if (wire.code === L.ErrorCode.INTERNAL_ERROR) {
      // The stack goes to the log, never onto the wire.
      this.log.error("handler failed", { request_id: job.id, method: job.ctx.method, error: String(err), stack: err instanceof Error ? (err.stack ?? null) : null });
    }
    this.conn!.writeError(job.id, wire);
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.start(next);
    }
    if (this.inflight.size === 0 && this.drainWaiters.length > 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const w of waiters) w();
    }
  }

  private cancelFromHost(params: JsonObject): void {
    if (this.session?.api === "0.1") return;
    const id = params["id"];
    if (typeof id === "number" || typeof id === "string") this.cancel(id, "request cancelled by the host");
  }

  private observe(method: string, params: JsonObject): void {
    const handlers = this.lifecycle.get(method as LifecycleMethod);
    if (handlers === undefined || !this.negotiated.has(FeatureName.LIFECYCLE_EVENTS)) return;
    const event = params as unknown as LifecycleEvent;
    for (const h of handlers) this.lifecycleQueue.push(() => h(event, method as LifecycleMethod));
    if (!this.lifecycleRunning) this.drainLifecycle();
  }

  private cancel(id: Id, reason: string): void {
    const job = this.inflight.get(id);
    if (job === undefined || job.ctx.settled) return; // unknown or finished: ignored
    if (!job.started) {
      const i = this.queue.indexOf(job);
      if (i >= 0) this.queue.splice(i, 1);
    }
    job.ctx.cancel(reason);
    job.ctx.settled = true;
    this.inflight.delete(id);
    this.conn!.writeError(id, { code: L.ErrorCode.REQUEST_CANCELLED, message: reason });
    this.pump();
  }

  // ---- notifications

  private onNotification(method: string, params: JsonObject | undefined): void {
    if (this.session === undefined) return;
    const route = Object.hasOwn(HOST_ROUTES, method) ? HOST_ROUTES[method] : undefined;
    if (route?.notification === true) {
      dispatchHost(this.hostHandlers, method, { id: 0, method, params: params ?? {} });
      return;
    }
    this.log.debug("ignored a notification", { method });
  }

  /**
   * Observations run in arrival order, one at a time, outside the request pool. Synchronous
   * handlers run at once (so a request that follows sees their effect); an async one holds
   * back the rest until it settles.
   */
  private drainLifecycle(): void {
    this.lifecycleRunning = true;
    while (this.lifecycleQueue.length > 0) {
      const task = this.lifecycleQueue.shift()!;
      let result: unknown;
      try {
        result = task();
      } catch (err) {
        this.log.error("lifecycle handler failed", { error: String(err) });
        continue;
      }
      if (result !== null && typeof result === "object" && typeof (result as Promise<unknown>).then === "function") {
        (result as Promise<unknown>).then(
          () => this.drainLifecycle(),
          (err: unknown) => {
            this.log.error("lifecycle handler failed", { error: String(err) });
            this.drainLifecycle();
          },
        );
        return;
      }
    }
    this.lifecycleRunning = false;
  }

  // ---- initialize, shutdown, EOF

  private initialize(id: Id, params: JsonObject | undefined): void {
    const conn = this.conn!;
    if (this.session !== undefined) {
      conn.writeError(id, { code: L.ErrorCode.INVALID_REQUEST, message: "initialize was already answered" });
      return;
    }
    const registry = {
      tools: [...this.tools.values()].map((t) => t.def),
      commands: [...this.commands.values()].map((c) => c.def),
      hooks: [...this.hooks.keys()],
      ui: [...this.statuses.keys()],
      context: this.contextHandler !== undefined,
      renderers: [...this.renderers.keys()],
      lifecycle: [...this.lifecycle.keys()],
    };
    let session: Negotiated;
    try {
      session = negotiate(params, { pinned: this.options.apiVersion, env: process.env["OCTET_EXTENSION_API_VERSION"], maxConcurrentRequests: this.options.maxConcurrentRequests }, registry);
    } catch (err) {
      const wire = err instanceof HandshakeError ? err.wire : toWireError(err);
      this.log.error("initialize refused", { reason: wire.message });
      conn.writeError(id, wire);
      return;
    }
    this.session = session;
    this.negotiated = session.features;
    this.concurrency = session.api === "0.1" ? 1 : session.concurrency;
    if (session.maxPending !== undefined) this.pendingLimit = Math.min(this.pendingLimit, session.maxPending);
    if (session.maxMessageBytes !== undefined) conn.setMaxBytes(session.maxMessageBytes);
    conn.idStyle = session.api === "0.1" ? "integer" : "string";
    conn.canCancel = session.api !== "0.1";
    if (session.features.has(FeatureName.DYNAMIC_TOOLS)) this.catalogs = new CatalogHistory(new Map(this.tools));
    conn.respond(id, session.result);
  }

  private shutdown(id: Id, params: JsonObject): void {
    const deadline = params["deadline_ms"];
    const budget = typeof deadline === "number" && Number.isSafeInteger(deadline) && deadline >= 0 ? deadline : this.options.shutdownDrainMs;
    this.stopping = true;
    this.shutdownInProgress = this.stop(budget, params as ShutdownParams).then(() => {
      this.conn!.respond(id, {});
      this.end({ reason: "shutdown", code: 0, detail: `shutdown (${String(params["reason"] ?? "no reason given")})` });
    });
  }

  private onClosed(kind: "eof" | "fault", reason: string): void {
    this.stopping = true;
    if (kind === "fault") {
      // The stream is unusable: cancel at once, give shutdown hooks a short bound, exit 1.
      void this.stop(0, { reason: "host_exit" }).then(() => this.end({ reason: "fault", code: 1, detail: reason }));
      return;
    }
    if (this.shutdownInProgress !== undefined) {
      // EOF after an admitted shutdown: wait for it, within the EOF drain budget.
      const bound = new Promise<void>((r) => setTimeout(r, this.options.shutdownDrainMs + SHUTDOWN_HOOK_FLOOR_MS).unref());
      void Promise.race([this.shutdownInProgress, bound]).then(() => this.end({ reason: "eof", code: 0, detail: reason }));
      return;
    }
    void this.stop(this.options.shutdownDrainMs, { reason: "host_exit" }).then(() => this.end({ reason: "eof", code: 0, detail: reason }));
  }

  /**
   * Drain (at most shutdownDrainMs of the budget), cancel what is left, then run shutdown hooks
   * with the rest of the budget (never less than a short floor, so they always get a chance).
   */
  private async stop(budgetMs: number, params: ShutdownParams): Promise<void> {
    const deadline = Date.now() + budgetMs;
    const drainMs = Math.min(budgetMs, this.options.shutdownDrainMs);
    if (this.inflight.size > 0 && drainMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainMs);
        this.drainWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    for (const id of [...this.inflight.keys()]) this.cancel(id, "request cancelled: the extension is shutting down");
    if (this.shutdownHandlers.length === 0) return;
    const remaining = Math.max(deadline - Date.now(), SHUTDOWN_HOOK_FLOOR_MS);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), remaining);
    });
    const hooks = Promise.allSettled(this.shutdownHandlers.map(async (h) => h(params))).then((results) => {
      for (const r of results) if (r.status === "rejected") this.log.error("shutdown handler failed", { error: String(r.reason) });
      return "done" as const;
    });
    const outcome = await Promise.race([hooks, bound]);
    clearTimeout(timer);
    if (outcome === "timeout") this.log.warning("shutdown handlers did not finish within the deadline; stopping anyway", { bound_ms: remaining });
  }
}
