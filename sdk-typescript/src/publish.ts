// Publishing a dynamic catalog change (tools/register, tools/replace, tools/unregister): check
// the operation's arguments, stage the next catalog in the history, send the change, commit
// what the host acknowledged or abort the stage. One change at a time: each must be
// acknowledged before the next is staged, so changes queue behind a lock.
import type { CatalogHistory } from "./catalog.js";
import { ValidationError } from "./errors.js";
import { Method } from "./generated/methods.js";
import type { JsonObject, JsonValue } from "./json.js";
import { MAX_CATALOG_TOOLS, MAX_TOOLS_PER_REQUEST } from "./limits.js";
import { toolEntry, type DynamicTool, type ToolEntry, type ToolHandler } from "./registry.js";
import type { CatalogUpdate } from "./types.js";

function entriesOf(tools: DynamicTool[]): ToolEntry[] {
  return tools.map((t) => toolEntry(t, t.handler as unknown as ToolHandler<JsonObject>));
}

function defsOf(entries: ToolEntry[]): JsonObject {
  return { tools: entries.map((e) => e.def) as unknown as JsonValue[] };
}

export class CatalogPublisher {
  private lock: Promise<unknown> = Promise.resolve();

  constructor(private readonly call: (method: string, params: JsonObject) => Promise<JsonValue>) {}

  register(history: CatalogHistory<ToolEntry>, tools: DynamicTool[]): Promise<CatalogUpdate> {
    if (tools.length < 1 || tools.length > MAX_TOOLS_PER_REQUEST) throw new ValidationError(`registerTools takes 1..${MAX_TOOLS_PER_REQUEST} tools, got ${tools.length}`);
    const entries = entriesOf(tools);
    return this.publish(history, Method.TOOLS_REGISTER, defsOf(entries), (next) => {
      for (const e of entries) next.set(e.def.name, e);
    });
  }

  replace(history: CatalogHistory<ToolEntry>, tools: DynamicTool[]): Promise<CatalogUpdate> {
    if (tools.length > MAX_CATALOG_TOOLS) throw new ValidationError(`replaceTools takes at most ${MAX_CATALOG_TOOLS} tools, got ${tools.length}`);
    const entries = entriesOf(tools);
    if (new Set(entries.map((e) => e.def.name)).size !== entries.length) throw new ValidationError("replaceTools: a tool name appears twice");
    return this.publish(history, Method.TOOLS_REPLACE, defsOf(entries), (next) => {
      next.clear();
      for (const e of entries) next.set(e.def.name, e);
    });
  }

  unregister(history: CatalogHistory<ToolEntry>, names: string[]): Promise<CatalogUpdate> {
    if (names.length < 1 || names.length > MAX_TOOLS_PER_REQUEST) throw new ValidationError(`unregisterTools takes 1..${MAX_TOOLS_PER_REQUEST} names, got ${names.length}`);
    return this.publish(history, Method.TOOLS_UNREGISTER, { names }, (next) => {
      for (const n of names) next.delete(n);
    });
  }

  /** Apply `change` to a copy of the current catalog and publish it with `method`. */
  private publish(history: CatalogHistory<ToolEntry>, method: string, params: JsonObject, change: (next: Map<string, ToolEntry>) => void): Promise<CatalogUpdate> {
    const run = async (): Promise<CatalogUpdate> => {
      const next = new Map(history.current);
      change(next);
      if (next.size > MAX_CATALOG_TOOLS) throw new ValidationError(`the catalog would hold ${next.size} tools; at most ${MAX_CATALOG_TOOLS}`);
      history.stage(next);
      let ack: JsonValue;
      try {
        ack = await this.call(method, params);
      } catch (err) {
        history.abort();
        throw err;
      }
      // call() checked the answer against CatalogUpdate: revision an integer, tools strings.
      const { revision, tools: accepted } = ack as unknown as CatalogUpdate;
      history.commit(revision, accepted);
      return { revision, tools: accepted };
    };
    const result = this.lock.then(run, run);
    this.lock = result.catch(() => undefined);
    return result;
  }
}
