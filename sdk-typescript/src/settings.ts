// Declared settings: the configure exchange (the configure feature). The host validates the
// operator's values against the manifest's `settings` schema (defaults applied) and sends them
// after initialize and on every change, without a restart. The onConfigure handler judges
// them: throwing SettingsRefused (or any error, its message the reason) refuses them and the
// settings in force stay in force.
import type { DispatchState, Job } from "./dispatch.js";
import type { Id, JsonObject, JsonValue } from "./json.js";
import { ValidationError } from "./errors.js";
import { Method } from "./generated/methods.js";

/** Which configure a handler is judging. */
export interface ConfigureInfo {
  /** Judge only: resolving accepts, but the settings in force do not change. */
  readonly dryRun: boolean;
  /** The host's settings revision (1 at start). */
  readonly revision: number;
}

/** Judges (and, outside a dry run, takes) new settings; throw SettingsRefused to refuse them. */
export type ConfigureHandler<S> = (settings: S, info: ConfigureInfo) => void | Promise<void>;

/** Thrown by an onConfigure handler to refuse the settings with reasons. */
export class SettingsRefused extends Error {
  readonly reasons: readonly string[];
  constructor(...reasons: string[]) {
    const list = reasons.length > 0 ? reasons : ["refused by the extension"];
    super(list.join("; "));
    this.name = "SettingsRefused";
    this.reasons = list;
  }
}

/** The registered handler and the settings in force (the last accepted). */
export class SettingsState {
  handler: ConfigureHandler<JsonObject> | undefined;
  value: JsonObject | undefined;
  revision = 0;

  register(handler: ConfigureHandler<JsonObject>): void {
    if (this.handler !== undefined) throw new ValidationError("onConfigure() is registered twice");
    this.handler = handler;
  }
}

function reasonsOf(err: unknown): string[] {
  if (err instanceof SettingsRefused) return [...err.reasons];
  const msg = err instanceof Error ? err.message : String(err);
  return [msg === "" ? "refused by the extension" : msg];
}

/** The job answering configure: judge with the handler, then take the settings unless a dry run. */
export function configureJob(s: DispatchState, id: Id, p: JsonObject): Job {
  // ConfigureParams (checked by the schema): settings an object, dry_run a boolean, revision ≥ 1.
  const settings = p["settings"] as JsonObject;
  const info: ConfigureInfo = { dryRun: p["dry_run"] as boolean, revision: p["revision"] as number };
  const state = s.registry.settings;
  const ctx = s.newContext(id, Method.CONFIGURE, p);
  const accept = (): JsonObject => {
    if (!info.dryRun) {
      state.value = settings;
      state.revision = info.revision;
    }
    return { accepted: true };
  };
  const refuse = (err: unknown): JsonObject => ({ accepted: false, reasons: reasonsOf(err) });
  const invoke = (): unknown => {
    const handler = state.handler;
    if (handler === undefined) return accept();
    let out: void | Promise<void>;
    try {
      out = handler(settings, info);
    } catch (err) {
      return refuse(err);
    }
    if (out !== undefined && out !== null && typeof (out as Promise<void>).then === "function") {
      return (out as Promise<void>).then(accept, refuse);
    }
    return accept();
  };
  return { id, ctx, started: false, invoke, finalize: (value) => value as JsonValue };
}
