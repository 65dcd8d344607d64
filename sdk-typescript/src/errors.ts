// The SDK's error hierarchy. Every class carries what the wire needs (code, message, data) so
// the dispatcher maps a thrown error to a JSON-RPC error without guessing.
import { ErrorCode } from "./limits.js";
import type { JsonValue } from "./json.js";

/** The JSON-RPC error object exactly as it travels. */
export interface WireError {
  code: number;
  message: string;
  data?: JsonValue;
}

/** Base class of every error this SDK throws. */
export class OctetError extends Error {
  override name = "OctetError";
}

/** The peer broke the wire contract (bad frame, bad revision, bad result shape). */
export class ProtocolError extends OctetError {
  override name = "ProtocolError";
}

/** The connection to the host is gone; pending calls fail with this. */
export class TransportError extends OctetError {
  override name = "TransportError";
}

/** A local check refused a value before it reached the wire (answered -32602 from a handler). */
export class ValidationError extends OctetError {
  override name = "ValidationError";
  readonly code = ErrorCode.INVALID_PARAMS;
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
  toWire(): WireError {
    const data: { [k: string]: JsonValue } = { reason: this.message };
    if (this.path !== undefined) data["path"] = this.path;
    return { code: this.code, message: this.message, data };
  }
}

/** A feature the call needs was not negotiated with this host. */
export class FeatureUnavailableError extends OctetError {
  override name = "FeatureUnavailableError";
  constructor(readonly feature: string, what: string) {
    super(`${what} needs the negotiated feature '${feature}', which this host did not offer or the SDK did not accept`);
  }
}

/** The host answered one of our requests with a JSON-RPC error. */
export class RemoteError extends OctetError {
  override name = "RemoteError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: JsonValue,
  ) {
    super(message);
  }
  toWire(): WireError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * Thrown by a handler to answer with a structured JSON-RPC error, carried verbatim.
 * Codes inside the reserved range -32768..-32000 are refused: they belong to the protocol.
 */
export class ToolError extends OctetError {
  override name = "ToolError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: JsonValue,
  ) {
    super(message);
    if (!Number.isSafeInteger(code)) throw new ValidationError(`ToolError code must be an integer, got ${String(code)}`);
    if (code >= -32768 && code <= -32000) {
      throw new ValidationError(`ToolError code ${code} is inside the reserved JSON-RPC range -32768..-32000`);
    }
  }
  toWire(): WireError {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** The request was cancelled (by the host or because the extension is stopping). */
export class CancelledError extends OctetError {
  override name = "CancelledError";
  readonly code = ErrorCode.REQUEST_CANCELLED;
  constructor(message = "request cancelled") {
    super(message);
  }
}

/** Map anything a handler threw to the JSON-RPC error the host receives. */
export function toWireError(err: unknown): WireError {
  if (err instanceof ToolError || err instanceof RemoteError || err instanceof ValidationError) return err.toWire();
  if (err instanceof CancelledError) return { code: ErrorCode.REQUEST_CANCELLED, message: err.message };
  if (err instanceof Error) return { code: ErrorCode.INTERNAL_ERROR, message: err.message || err.name };
  return { code: ErrorCode.INTERNAL_ERROR, message: `handler threw a non-Error value: ${String(err)}` };
}
