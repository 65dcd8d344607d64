// The catalog service (ext.catalog): dynamic tools. Each change checks its arguments, stages
// the next catalog in the history, sends tools/register, tools/replace or tools/unregister
// through the session, and commits what the host acknowledged or aborts the stage. One change
// at a time: each must be acknowledged before the next is staged, so changes queue behind a
// lock.
import { CatalogHistory } from "./catalog.js";
import { FeatureUnavailableError, ValidationError } from "./errors.js";
import type { JsonObject } from "./json.js";
import { MAX_CATALOG_TOOLS } from "./limits.js";
import { Requests, type CallOptions, type Draft, type RequestType } from "./generated/requests.js";
import type { ToolsCatalogResult } from "./generated/index.js";
import { toolEntry, type DynamicTool, type ToolEntry, type ToolHandler } from "./registry.js";
import type { Session } from "./session.js";
import type { CatalogUpdate } from "./types.js";

function entriesOf(tools: readonly DynamicTool[]): ToolEntry[] {
  return tools.map((t) => toolEntry(t, t.handler as unknown as ToolHandler<JsonObject>));
}

type Change<P> = RequestType<P, ToolsCatalogResult>;

/** catalog: register, replace and unregister dynamic tools; revision() is the last acknowledged. */
export class Catalog {
  #lock: Promise<unknown> = Promise.resolve();
  /** @internal The committed catalogs (set at initialize when dynamic_tools was negotiated). */
  history: CatalogHistory<ToolEntry> | undefined;

  constructor(private readonly session: Session) {}

  /** Add or replace tools in one transactional request. */
  async register(tools: DynamicTool[], options: CallOptions = {}): Promise<CatalogUpdate> {
    const entries = entriesOf(tools);
    return this.#publish(Requests.TOOLS_REGISTER, { tools: entries.map((e) => e.def) }, options, (next) => {
      for (const e of entries) next.set(e.def.name, e);
    });
  }

  /** Make `tools` the whole catalog: one revision, or nothing changes (an empty list empties it). */
  async replace(tools: DynamicTool[], options: CallOptions = {}): Promise<CatalogUpdate> {
    const entries = entriesOf(tools);
    if (new Set(entries.map((e) => e.def.name)).size !== entries.length) throw new ValidationError("catalog.replace: a tool name appears twice");
    return this.#publish(Requests.TOOLS_REPLACE, { tools: entries.map((e) => e.def) }, options, (next) => {
      next.clear();
      for (const e of entries) next.set(e.def.name, e);
    });
  }

  /** Remove tools in one request; absent names are harmless. */
  async unregister(names: string[], options: CallOptions = {}): Promise<CatalogUpdate> {
    return this.#publish(Requests.TOOLS_UNREGISTER, { names }, options, (next) => {
      for (const n of names) next.delete(n);
    });
  }

  /** The catalog revision the host last acknowledged (0 after initialize; nothing is sent). */
  revision(): number {
    return this.history?.revision ?? 0;
  }

  /** Apply `change` to a copy of the current catalog and publish it with `type`. */
  #publish<P>(type: Change<P>, params: Draft<P>, options: CallOptions, change: (next: Map<string, ToolEntry>) => void): Promise<CatalogUpdate> {
    const history = this.history;
    if (history === undefined) {
      if (!this.session.established) return this.session.request(type, params, options);
      throw new FeatureUnavailableError(type.feature, type.method);
    }
    const run = async (): Promise<CatalogUpdate> => {
      const next = new Map(history.current);
      change(next);
      if (next.size > MAX_CATALOG_TOOLS) throw new ValidationError(`the catalog would hold ${next.size} tools; at most ${MAX_CATALOG_TOOLS}`);
      history.stage(next);
      let ack: ToolsCatalogResult;
      try {
        ack = await this.session.request(type, params, options);
      } catch (err) {
        history.abort();
        throw err;
      }
      history.commit(ack.revision, ack.tools);
      return { revision: ack.revision, tools: ack.tools };
    };
    const result = this.#lock.then(run, run);
    this.#lock = result.catch(() => undefined);
    return result;
  }
}
