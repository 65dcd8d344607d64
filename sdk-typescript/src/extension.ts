// The Extension: the author's API (registration, the service objects, serving), composed of
// the runtime's layers: registry.ts (what was declared), dispatch.ts (the host-method table),
// admission.ts (pool and in-flight table), connection.ts (framing, the single writer),
// session.ts (what initialize agreed, and send) and services.ts (ext.kv, ext.ui, ... built on
// send). This file also holds the serving order: initialize, lifecycle observations, shutdown
// and EOF. See docs/typescript.md.
import { Admission } from "./admission.js";
import { CatalogHistory } from "./catalog.js";
import { Catalog } from "./publish.js";
import { Connection } from "./connection.js";
import { RequestContext, type ContextRuntime, type ProgressEvent } from "./context.js";
import { LifecycleQueue, dispatch, hostHandlers, invalidParams, routeOf, type DispatchState, type HostCall } from "./dispatch.js";
import { Dispatch, FeatureName, dispatchHost, type HostHandlers } from "./generated/dispatch.js";
import { Requests, type NotificationType, type Outgoing, type RequestType, type CallOptions } from "./generated/requests.js";
import { ValidationError, toWireError } from "./errors.js";
import { isObject, type Id, type JsonObject, type JsonValue } from "./json.js";
import * as L from "./limits.js";
import { Logger } from "./log.js";
import { HandshakeError, negotiate, type Negotiated } from "./negotiate.js";
import {
  Registry, isLifecycle, toolEntry, type CommandHandler, type ContextHandler, type DynamicTool, type HookHandler, type LifecycleHandler,
  type RendererHandler, type ShutdownHandler, type StatusHandler, type ToolEntry, type ToolHandler, type ToolSpec, type ArgsOf,
} from "./registry.js";
import { checkWire, requestParamsType } from "./wirecheck.js";
import type { Typed, TypedToolSpec } from "./typed.js";
import { typedToolEntry } from "./typedtool.js";
import type { JsonSchema } from "./schema.js";
import { AgentsService, Artifacts, KV, Policy, Presentation, Progress, SecretsService, UIService } from "./services.js";
import { Session } from "./session.js";
import { Migrations, type MigrationStep } from "./migrate.js";
import { StdioTransport, protectStdout } from "./stdio.js";
import type { Transport } from "./transport.js";
import type { ApiVersion, HookName, LifecycleMethod, LifecycleNotification, ResourceOwner, ShutdownParams, Surface } from "./types.js";
import type { ConfigureHandler } from "./settings.js";

// The registration types were declared here before registry.ts; they stay importable from here.
export type {
  ArgsOf, CommandHandler, ContextHandler, DynamicTool, HookHandler, LifecycleHandler, RendererHandler, ShutdownHandler, StatusHandler,
  ToolHandler, ToolSpec,
} from "./registry.js";

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

/** How serve() ended: the exit code run() uses, and why. */
export interface ServeResult {
  reason: "shutdown" | "eof" | "fault";
  code: number;
  detail: string;
}

const SHUTDOWN_HOOK_FLOOR_MS = 100;

function ownerOf(params: JsonObject): ResourceOwner | undefined {
  const o = params["resource_owner"];
  return isObject(o) ? (o as unknown as ResourceOwner) : undefined;
}

export class Extension {
  readonly log = new Logger();
  private readonly options: Required<Omit<ExtensionOptions, "apiVersion">> & { apiVersion: ApiVersion | undefined };

  private readonly registry = new Registry();

  private conn: Connection | undefined;
  private agreed: Negotiated | undefined;
  private concurrency = 1;
  private readonly session = new Session();
  private readonly migrations = new Migrations();

  // ---- the services, each built on the session's send (services.ts)
  readonly kv = new KV(this.session);
  readonly ui = new UIService(this.session);
  readonly presentation = new Presentation(this.session);
  readonly progress = new Progress(this.session);
  readonly artifacts = new Artifacts(this.session);
  readonly policy = new Policy(this.session);
  readonly secrets = new SecretsService(this.session);
  readonly catalog = new Catalog(this.session);
  readonly agents = new AgentsService(this.session);

  private pool: Admission | undefined;
  private stopping = false;
  private readonly observations = new LifecycleQueue(this.log);
  private finishServe: ((r: ServeResult) => void) | undefined;
  private shutdownInProgress: Promise<void> | undefined;

  constructor(options: ExtensionOptions = {}) {
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
  }

  // ---- registration

  /**
   * Register a tool. The handler's argument type follows from `parameters` (declare it inline or
   * `as const`), or give it explicitly: `ext.tool<{ name: string }>(...)`. Arguments are
   * checked against `parameters` before the handler runs; a mismatch answers -32602.
   */
  tool<A = never, const P extends JsonSchema = JsonSchema>(spec: ToolSpec<P>, handler: ToolHandler<ArgsOf<A, P>>): this {
    this.beforeServing("tool");
    this.registry.addTool(spec, handler as ToolHandler<unknown> as ToolHandler<JsonObject>);
    return this;
  }

  /**
   * Register a typed tool: `input` (built with `typed`) is its parameters schema and the
   * handler's argument type; with `output`, the handler returns that type, which becomes the
   * result's `structured_content` (validated against the output_schema before sending) with
   * its compact JSON as the text part, as Go's StructuredTool and Python's typed tools do.
   */
  typedTool<I, O extends object>(spec: TypedToolSpec<I, O> & { output: Typed<O> }, handler: (args: I, ctx: RequestContext) => O | Promise<O>): this;
  typedTool<I>(spec: TypedToolSpec<I>, handler: ToolHandler<I>): this;
  typedTool<I, O extends object>(spec: TypedToolSpec<I, O>, handler: (args: I, ctx: RequestContext) => unknown): this {
    this.beforeServing("tool");
    const entry = typedToolEntry(spec, handler);
    this.registry.addTool(entry.spec, entry.handler);
    return this;
  }

  command(spec: { name: string; description: string }, handler: CommandHandler): this {
    this.beforeServing("command");
    this.registry.addCommand(spec, handler);
    return this;
  }

  hook<H extends HookName>(name: H, handler: HookHandler<H>): this {
    this.beforeServing("hook");
    this.registry.addHook(name, handler as unknown as HookHandler<HookName>);
    return this;
  }

  context(handler: ContextHandler): this {
    this.beforeServing("context");
    this.registry.contextHandler = handler;
    return this;
  }

  status(surface: Surface, handler: StatusHandler): this {
    this.beforeServing("status");
    this.registry.addStatus(surface, handler);
    return this;
  }

  renderer(toolName: string, handler: RendererHandler): this {
    this.beforeServing("renderer");
    this.registry.renderers.set(toolName, handler);
    return this;
  }

  /** Observe a lifecycle event ("turn/settled" or "turn_settled"). Observations cannot veto. */
  onLifecycle(event: string, handler: LifecycleHandler): this {
    this.beforeServing("onLifecycle");
    this.registry.addLifecycle(event, handler);
    return this;
  }

  /** Judge the settings `configure` delivers (typed: `onConfigure<S>`); throw SettingsRefused to refuse. */
  onConfigure<S extends object = JsonObject>(handler: ConfigureHandler<S>): this {
    this.beforeServing("onConfigure");
    this.registry.settings.register(handler as unknown as ConfigureHandler<JsonObject>);
    return this;
  }

  /** The settings in force (the last configure accepted) and their revision (0: none yet). */
  settings<S extends object = JsonObject>(): S | undefined { return this.registry.settings.value as S | undefined; }
  get settingsRevision(): number { return this.registry.settings.revision; }

  /** Run at shutdown (and stdin EOF) after the drain, bounded by the remaining deadline. */
  onShutdown(handler: ShutdownHandler): this {
    this.registry.shutdownHandlers.push(handler);
    return this;
  }

  private beforeServing(what: string): void {
    if (this.conn !== undefined) throw new ValidationError(`${what}() must be called before run(); use ext.catalog.register for tools added later`);
  }

  // ---- state after initialize

  /** The features negotiated with the host (empty before initialize and on API 0.1). */
  get negotiatedFeatures(): ReadonlySet<string> {
    return this.session.features;
  }

  /** The worker pool size agreed with the host. */
  get negotiatedConcurrency(): number {
    return this.concurrency;
  }

  /** The API version in use, once initialized. */
  get negotiatedApiVersion(): ApiVersion | undefined {
    return this.agreed?.api;
  }

  /**
   * Call the host with a generated descriptor, `ext.send(Requests.KV_GET, { namespace, key })`:
   * checks the API version, negotiated feature and manifest contribution, fills
   * parent_request_id from `call.parent` or the handler running, validates the params with
   * the generated validator and resolves to the schema-checked result. The service objects
   * (ext.kv, ext.ui, ...) are built on it.
   */
  send<P, R>(type: RequestType<P, R>, params: Outgoing<P>, call?: CallOptions): Promise<R>;
  send<P>(type: NotificationType<P>, params: Outgoing<P>, call?: CallOptions): void;
  send<P, R>(type: RequestType<P, R> | NotificationType<P>, params: Outgoing<P>, call?: CallOptions): Promise<R> | void {
    return type.kind === "request" ? this.session.send(type, params, call) : this.session.send(type, params, call);
  }

  /**
   * Register the step that rewrites the KV data of version `fromVersion` into `fromVersion + 1`
   * (data stored without a version is version 1). Before the first KV call the SDK runs the
   * steps from the stored version (`octet:kv_version`) up to the manifest's `[state] kv_version`,
   * each step's writes and the version bump in one KV commit; a failure rejects that KV call
   * with a MigrationError and keeps the old data.
   */
  migration(fromVersion: number, step: MigrationStep): this {
    this.migrations.register(fromVersion, step);
    return this;
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
    this.session.attach(conn);
    this.session.gate(Requests.KV_GET.feature, () => this.migrations.ensure((type, params) => this.session.call(type, params), this.session.name, this.session.manifest));
    this.pool = new Admission(conn, this.log, this.options.maxPendingRequests);
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
    if (this.pool!.has(id)) {
      conn.writeError(id, { code: L.ErrorCode.INVALID_REQUEST, message: `request id ${JSON.stringify(id)} is already in flight` });
      return;
    }
    const route = routeOf(method);
    if (route?.dispatch === Dispatch.HANDSHAKE) return this.initialize(id, params);
    if (this.agreed === undefined) {
      conn.writeError(id, { code: L.ErrorCode.INVALID_REQUEST, message: `${method} before initialize: the first request must be initialize` });
      return;
    }
    if (this.stopping) {
      conn.writeError(id, { code: L.ErrorCode.SHUTTING_DOWN, message: `extension is shutting down; ${method} refused` });
      return;
    }
    const p = params ?? {};
    const type = requestParamsType(method, this.agreed.api);
    if (type !== undefined) {
      const fault = checkWire(type, p);
      if (fault !== undefined) {
        conn.writeError(id, invalidParams(`invalid ${method} params: ${fault.message}`, fault.path));
        return;
      }
    }
    if (route?.dispatch === Dispatch.SHUTDOWN) return this.shutdown(id, p);
    const job = dispatch(this.handlers, id, method, p);
    if (!("ctx" in job)) {
      conn.writeError(id, job);
      return;
    }
    this.pool!.admit(job);
  }

  private readonly dispatchState: DispatchState = ((ext: Extension): DispatchState => ({
    registry: ext.registry,
    get catalogs(): CatalogHistory<ToolEntry> | undefined {
      return ext.catalog.history;
    },
    get api(): ApiVersion {
      return ext.agreed!.api;
    },
    newContext(id: Id, method: string, params: JsonObject, revision?: number, callId?: string, key?: string): RequestContext {
      const parent = ext.agreed!.api === "0.1" ? undefined : id;
      return new RequestContext(ext.runtimeView, id, method, ownerOf(params), parent, revision, callId, key);
    },
  }))(this);

  private readonly runtimeView: ContextRuntime = ((ext: Extension): ContextRuntime => ({
    get features(): ReadonlySet<string> {
      return ext.session.features;
    },
    log: ext.log,
    sendProgress: (parent: Id, sequence: number, event: ProgressEvent) => {
      ext.session.notify(Requests.PROGRESS, { sequence, event }, { parent });
    },
  }))(this);

  // ---- notifications

  private onNotification(method: string, params: JsonObject | undefined): void {
    if (this.agreed === undefined) return;
    if (routeOf(method)?.notification === true) {
      dispatchHost(this.handlers, method, { id: 0, method, params: params ?? {} });
      return;
    }
    this.log.debug("ignored a notification", { method });
  }

  /** $/cancelRequest: cancel the request it names (0.1 has no cancellation). */
  private cancelFromHost(params: JsonObject): void {
    if (this.agreed?.api === "0.1") return;
    const id = params["id"];
    if (typeof id === "number" || typeof id === "string") this.pool!.cancel(id, "request cancelled by the host");
  }

  /** A lifecycle event: its handlers queued in arrival order, when lifecycle_events was negotiated. */
  private observe(method: string, params: JsonObject): void {
    if (!isLifecycle(method)) return;
    const handlers = this.registry.lifecycle.get(method);
    if (handlers === undefined || !this.session.features.has(FeatureName.LIFECYCLE_EVENTS)) return;
    const event = params as unknown as LifecycleNotification;
    this.observations.push(handlers.map((h) => () => h(event, method)));
  }

  /** Every method the host sends, by the generated table (dispatch.ts). */
  private readonly handlers: HostHandlers<HostCall> = hostHandlers(this.dispatchState, {
    initialize: (id, params) => this.initialize(id, params),
    shutdown: (id, params) => this.shutdown(id, params),
    cancel: (params) => this.cancelFromHost(params),
    observe: (method, params) => this.observe(method, params),
  });

  // ---- initialize, shutdown, EOF

  private initialize(id: Id, params: JsonObject | undefined): void {
    const conn = this.conn!;
    if (this.agreed !== undefined) {
      conn.writeError(id, { code: L.ErrorCode.INVALID_REQUEST, message: "initialize was already answered" });
      return;
    }
    const registry = this.registry.registered();
    let session: Negotiated;
    try {
      session = negotiate(params, { pinned: this.options.apiVersion, env: process.env["OCTET_EXTENSION_API_VERSION"], maxConcurrentRequests: this.options.maxConcurrentRequests }, registry);
    } catch (err) {
      const wire = err instanceof HandshakeError ? err.wire : toWireError(err);
      this.log.error("initialize refused", { reason: wire.message });
      conn.writeError(id, wire);
      return;
    }
    this.agreed = session;
    this.session.establish(session);
    this.concurrency = session.api === "0.1" ? 1 : session.concurrency;
    const pool = this.pool!;
    pool.concurrency = this.concurrency;
    if (session.maxPending !== undefined) pool.pendingLimit = Math.min(pool.pendingLimit, session.maxPending);
    if (session.maxMessageBytes !== undefined) conn.setMaxBytes(session.maxMessageBytes);
    conn.idStyle = session.api === "0.1" ? "integer" : "string";
    conn.canCancel = session.api !== "0.1";
    if (session.features.has(FeatureName.DYNAMIC_TOOLS)) this.catalog.history = new CatalogHistory(new Map(this.registry.tools));
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
    const pool = this.pool!;
    await pool.drain(drainMs);
    for (const id of pool.ids()) pool.cancel(id, "request cancelled: the extension is shutting down");
    const handlers = this.registry.shutdownHandlers;
    if (handlers.length === 0) return;
    const remaining = Math.max(deadline - Date.now(), SHUTDOWN_HOOK_FLOOR_MS);
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), remaining);
    });
    const hooks = Promise.allSettled(handlers.map(async (h) => h(params))).then((results) => {
      for (const r of results) if (r.status === "rejected") this.log.error("shutdown handler failed", { error: String(r.reason) });
      return "done" as const;
    });
    const outcome = await Promise.race([hooks, bound]);
    clearTimeout(timer);
    if (outcome === "timeout") this.log.warning("shutdown handlers did not finish within the deadline; stopping anyway", { bound_ms: remaining });
  }
}
