// The session: what initialize agreed (API version, features, the manifest the host sent) and
// the one way to call the host, send(descriptor, params). Every service (services.ts, over the
// generated ones in generated/services.ts) is built on it, so the rules live once: the method
// must exist in the API version, its negotiated feature and manifest contribution must be
// there, parent_request_id comes from the call in progress, params are checked by the
// generated validator before they leave and the result before the caller sees it.
import type { Connection } from "./connection.js";
import { currentContext } from "./context.js";
import { FeatureUnavailableError, ProtocolError, ValidationError } from "./errors.js";
import { isObject, type Id, type JsonObject, type JsonValue } from "./json.js";
import type { Negotiated } from "./negotiate.js";
import type { CallOptions, Draft, NotificationType, Outgoing, RequestType, Sender } from "./generated/requests.js";
import { checkWire } from "./wirecheck.js";
import type { ApiVersion } from "./types.js";

type Descriptor = RequestType<unknown, unknown> | NotificationType<unknown>;

/** A request ready for the wire: its checked params and the signal that stops waiting. */
interface Prepared {
  params: JsonObject;
  signal: AbortSignal | undefined;
}

export class Session implements Sender {
  private conn: Connection | undefined;
  private agreed: Negotiated | undefined;
  /** Run once before the first call that needs a feature (the KV migrations before the first KV call). */
  private readonly gates = new Map<string, () => Promise<void>>();

  /** @internal The connection requests go out on (serve() attaches it). */
  attach(conn: Connection): void {
    this.conn = conn;
  }

  /** @internal What initialize agreed. */
  establish(agreed: Negotiated): void {
    this.agreed = agreed;
  }

  /** @internal Run `gate` before every call needing `feature` (it caches its own success). */
  gate(feature: string, gate: () => Promise<void>): void {
    this.gates.set(feature, gate);
  }

  get established(): boolean {
    return this.agreed !== undefined;
  }

  /** The API version in use, once initialized. */
  get api(): ApiVersion | undefined {
    return this.agreed?.api;
  }

  /** The features negotiated with the host (empty before initialize). */
  get features(): ReadonlySet<string> {
    return this.agreed?.features ?? new Set();
  }

  /** The extension's name as the host sent it ("" before initialize). */
  get name(): string {
    return this.agreed?.name ?? "";
  }

  /** The manifest the host sent in initialize. */
  get manifest(): JsonObject | undefined {
    return this.agreed?.manifest;
  }

  /**
   * Send one request (resolves to its typed, schema-checked result) or notification. The
   * descriptor is one of the generated `Requests.*`; parent_request_id is filled from
   * `call.parent` or the handler running.
   */
  send<P, R>(type: RequestType<P, R>, params: Outgoing<P>, call?: CallOptions): Promise<R>;
  send<P>(type: NotificationType<P>, params: Outgoing<P>, call?: CallOptions): void;
  send<P, R>(type: RequestType<P, R> | NotificationType<P>, params: Outgoing<P>, call?: CallOptions): Promise<R> | void {
    if (type.kind === "request") return this.request(type, params as Draft<P>, call);
    this.notify(type, params as Draft<P>, call);
  }

  async request<P, R>(type: RequestType<P, R>, params: Draft<P>, call?: CallOptions): Promise<R> {
    const ready = this.prepare(type as Descriptor, params, call);
    await this.gates.get(type.feature)?.();
    return (await this.call(type, ready.params, ready.signal)) as R;
  }

  notify<P>(type: NotificationType<P>, params: Draft<P>, call?: CallOptions): void {
    const ready = this.prepare(type as Descriptor, params, call);
    this.conn!.notify(type.method, ready.params);
  }

  /** @internal A request past the gates (the KV migrations use it): sent and its result checked. */
  async call<P, R>(type: RequestType<P, R>, params: JsonObject, signal?: AbortSignal): Promise<JsonValue> {
    if (this.conn === undefined || this.agreed === undefined) throw new ValidationError(`${type.method} can only be sent after initialize`);
    const result = await this.conn.request(type.method, params, signal);
    const fault = checkWire(type.result, result);
    if (fault !== undefined) throw new ProtocolError(`${type.method} result does not match the schema: ${fault.message}`);
    return result;
  }

  private prepare(type: Descriptor, draft: object, call: CallOptions | undefined): Prepared {
    const agreed = this.agreed;
    if (this.conn === undefined || agreed === undefined) throw new ValidationError(`${type.method} can only be sent after initialize`);
    if (!type.versions.includes(agreed.api)) throw new ValidationError(`${type.method} is not part of API ${agreed.api}`);
    if (type.feature !== "" && !agreed.features.has(type.feature)) throw new FeatureUnavailableError(type.feature, type.method);
    if (type.contribution !== "" && !contributes(agreed.manifest, type.contribution)) {
      throw new ValidationError(`${type.method} needs [contributes] ${type.contribution} in the manifest`);
    }
    const params: JsonObject = {};
    for (const [k, v] of Object.entries(draft)) if (v !== undefined) params[k] = v as JsonValue;
    // A KV namespace left out is the extension's own.
    if (Object.hasOwn(draft, "namespace") && params["namespace"] === undefined) params["namespace"] = agreed.name;
    let signal = call?.signal;
    if (type.parent !== "none" && agreed.api !== "0.1") {
      const parent = parentOf(call, type.method, type.parent === "required");
      if (parent.id !== undefined) params["parent_request_id"] = parent.id;
      signal ??= parent.signal;
    }
    const fault = checkWire(type.params, params);
    if (fault !== undefined) throw new ValidationError(`invalid ${type.method} params: ${fault.message}`, fault.path);
    return { params, signal };
  }
}

/** Whether the manifest the host sent contributes `what` (true, or a non-empty list). */
function contributes(manifest: JsonObject, what: string): boolean {
  const c = manifest["contributes"];
  if (!isObject(c)) return false;
  const v = c[what];
  return v === true || (Array.isArray(v) && v.length > 0);
}

/** The parent request id of a call: the explicit option, else the handler running. */
function parentOf(call: CallOptions | undefined, method: string, required: boolean): { id: Id | undefined; signal: AbortSignal | undefined } {
  const p = call?.parent ?? currentContext();
  if (p === undefined) {
    if (required) throw new ValidationError(`${method} needs a parent request: call it from a handler or pass { parent: ctx }`, "/parent_request_id");
    return { id: undefined, signal: undefined };
  }
  if (typeof p === "string" || typeof p === "number") return { id: p, signal: undefined };
  if (required && p.parentRequestId === undefined) throw new ValidationError(`${method} needs a parent request id (not available on API 0.1)`);
  return { id: p.parentRequestId, signal: p.signal };
}
