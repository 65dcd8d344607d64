// The registry: what the author declared (tools, commands, hooks, context, status surfaces,
// renderers, lifecycle observers, shutdown handlers), checked as it is declared. Dispatch and
// negotiation read it; nothing here talks to the host.
import type { RequestContext } from "./context.js";
import { ValidationError } from "./errors.js";
import { EVENT_METHODS } from "./generated/dispatch.js";
import type { JsonObject } from "./json.js";
import * as L from "./limits.js";
// negotiate.ts calls this shape "Registry" (the declared names, not the handlers).
import type { Registry as Registered } from "./negotiate.js";
import { compileToolSchema, type CompiledSchema, type Infer, type JsonSchema } from "./schema.js";
import type {
  CommandResult, ContextCollectParams, ContextItem, HookName, HookPayloads, HookResult, LifecycleMethod, LifecycleNotification, RenderParams,
  RenderResult, ShutdownParams, StatusCollectParams, StatusResult, Surface, ToolDefinition, ToolReturn,
} from "./types.js";
import { SettingsState } from "./settings.js";

type Awaitable<T> = T | Promise<T>;

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
export type LifecycleHandler = (event: LifecycleNotification, method: LifecycleMethod) => Awaitable<void>;
export type ShutdownHandler = (params: ShutdownParams) => Awaitable<void>;

/** A tool's argument type: explicit `A`, else inferred from `parameters`, else any JSON object. */
export type ArgsOf<A, P> = [A] extends [never] ? (JsonSchema extends P ? JsonObject : Infer<P>) : A;

/** A dynamic tool: its definition plus the handler that serves it. */
export interface DynamicTool<P extends JsonSchema = JsonSchema> extends ToolSpec<P> {
  handler: ToolHandler<ArgsOf<never, P>>;
}

export interface ToolEntry {
  def: ToolDefinition;
  handler: ToolHandler<JsonObject>;
  /** `parameters`, compiled when the tool was defined. */
  params: CompiledSchema;
}

export interface CommandEntry {
  def: { name: string; description: string };
  handler: CommandHandler;
}

const LIFECYCLE: ReadonlySet<string> = EVENT_METHODS;
const EMPTY_SCHEMA: JsonSchema = { type: "object", properties: {} };

/** Whether `method` is a lifecycle notification. */
export function isLifecycle(method: string): method is LifecycleMethod {
  return LIFECYCLE.has(method);
}

function lifecycleName(name: string): LifecycleMethod {
  const slash = name.includes("/") ? name : name.replace("_", "/");
  if (!LIFECYCLE.has(slash)) throw new ValidationError(`unknown lifecycle event '${name}'; use session/turn/tool + started/settled (slash or underscore)`);
  return slash as LifecycleMethod;
}

/** A tool's entry: its definition, its handler and its compiled parameters (refused here, never at call time). */
export function toolEntry(spec: ToolSpec, handler: ToolHandler<JsonObject>): ToolEntry {
  if (typeof spec.name !== "string" || !/^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/.test(spec.name)) {
    throw new ValidationError(`tool name ${JSON.stringify(spec.name)} must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`);
  }
  if (typeof spec.description !== "string" || [...spec.description].length > 4096) {
    throw new ValidationError(`tool '${spec.name}' description must be a string of at most 4096 chars`);
  }
  if (typeof handler !== "function") throw new ValidationError(`tool '${spec.name}' needs a handler function`);
  const def: ToolDefinition = { name: spec.name, description: spec.description, parameters: spec.parameters ?? EMPTY_SCHEMA };
  const params = compileToolSchema(spec.name, "parameters", def.parameters as JsonSchema);
  if (spec.outputSchema !== undefined) {
    compileToolSchema(spec.name, "output_schema", spec.outputSchema);
    def.output_schema = spec.outputSchema;
  }
  return { def, handler, params };
}

export class Registry {
  readonly tools = new Map<string, ToolEntry>();
  readonly commands = new Map<string, CommandEntry>();
  readonly hooks = new Map<string, HookHandler<HookName>>();
  readonly statuses = new Map<string, StatusHandler>();
  readonly renderers = new Map<string, RendererHandler>();
  readonly lifecycle = new Map<LifecycleMethod, LifecycleHandler[]>();
  readonly shutdownHandlers: ShutdownHandler[] = [];
  readonly settings = new SettingsState();
  contextHandler: ContextHandler | undefined;

  addTool(spec: ToolSpec, handler: ToolHandler<JsonObject>): void {
    const entry = toolEntry(spec, handler);
    if (this.tools.has(spec.name)) throw new ValidationError(`tool '${spec.name}' is registered twice`);
    if (this.tools.size >= L.MAX_CATALOG_TOOLS) throw new ValidationError(`more than ${L.MAX_CATALOG_TOOLS} tools`);
    this.tools.set(spec.name, entry);
  }

  addCommand(spec: { name: string; description: string }, handler: CommandHandler): void {
    if (!/^[a-z][a-z0-9_-]{0,63}$/.test(spec.name)) throw new ValidationError(`command name ${JSON.stringify(spec.name)} must match ^[a-z][a-z0-9_-]{0,63}$`);
    if (this.commands.has(spec.name)) throw new ValidationError(`command '${spec.name}' is registered twice`);
    this.commands.set(spec.name, { def: { name: spec.name, description: spec.description }, handler });
  }

  addHook(name: HookName, handler: HookHandler<HookName>): void {
    if (this.hooks.has(name)) throw new ValidationError(`hook '${name}' is registered twice`);
    this.hooks.set(name, handler);
  }

  addStatus(surface: Surface, handler: StatusHandler): void {
    if (!["status", "header", "footer"].includes(surface)) throw new ValidationError(`ui surface must be status, header or footer, got ${JSON.stringify(surface)}`);
    this.statuses.set(surface, handler);
  }

  addLifecycle(event: string, handler: LifecycleHandler): void {
    const method = lifecycleName(event);
    const list = this.lifecycle.get(method) ?? [];
    list.push(handler);
    this.lifecycle.set(method, list);
  }

  /** What initialize declares and checks against the manifest. */
  registered(): Registered {
    return {
      tools: [...this.tools.values()].map((t) => t.def),
      commands: [...this.commands.values()].map((c) => c.def),
      hooks: [...this.hooks.keys()],
      ui: [...this.statuses.keys()],
      context: this.contextHandler !== undefined,
      renderers: [...this.renderers.keys()],
      lifecycle: [...this.lifecycle.keys()],
    };
  }
}
