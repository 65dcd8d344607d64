// The JSON-RPC 2.0 connection: decodes inbound frames, correlates our outbound requests, and
// is the single writer of the protocol stream. It never runs extension code itself: requests
// and notifications are handed to the runtime, which queues them.
import { CancelledError, ProtocolError, RemoteError, TransportError, ValidationError, type WireError } from "./errors.js";
import { LineDecoder, excerptOf } from "./framing.js";
import { isObject, type Id, type JsonObject, type JsonValue } from "./json.js";
import { ErrorCode, MAX_ID_BYTES } from "./limits.js";
import type { Logger } from "./log.js";
import type { Transport } from "./transport.js";
import { parseFrame, WireRuleError } from "./wireparse.js";
import { Method } from "./generated/methods.js";

export interface InboundHandlers {
  request(id: Id, method: string, params: JsonObject | undefined): void;
  notification(method: string, params: JsonObject | undefined): void;
  /** The host closed the stream ("eof") or broke framing ("fault"). Called once. */
  closed(kind: "eof" | "fault", reason: string): void;
}

interface PendingCall {
  resolve(value: JsonValue): void;
  reject(err: Error): void;
}

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const RESPONSE_KEYS = new Set(["jsonrpc", "id", "result", "error"]);

export function isValidId(id: unknown): id is Id {
  if (typeof id === "number") return Number.isSafeInteger(id) && id >= 0;
  return typeof id === "string" && id.length > 0 && Buffer.byteLength(id) <= MAX_ID_BYTES;
}

function onlyKeys(obj: JsonObject, allowed: Set<string>): string | undefined {
  for (const key in obj) if (!allowed.has(key)) return key;
  return undefined;
}

export class Connection {
  /** Inbound and outbound frame bound (wire.md §1), adjustable after initialize. */
  maxBytes: number;
  /** "string" ids with the ts: prefix for 0.2/0.4, integers for 0.1. */
  idStyle: "string" | "integer" = "string";
  /** Whether $/cancelRequest may be sent (0.2/0.4). */
  canCancel = true;
  private readonly pending = new Map<Id, PendingCall>();
  private counter = 0;
  /** Set when nothing more may be written. */
  private closedReason: string | undefined;
  private readClosed = false;
  private readonly decoder: LineDecoder;

  constructor(
    private readonly transport: Transport,
    private readonly handlers: InboundHandlers,
    private readonly log: Logger,
    maxBytes: number,
  ) {
    this.maxBytes = maxBytes;
    this.decoder = new LineDecoder(
      {
        line: (text) => this.onLine(text),
        fault: (reason, excerpt) => this.fault(ErrorCode.INVALID_REQUEST, reason, excerpt),
      },
      maxBytes,
    );
  }

  start(): void {
    this.transport.start({
      data: (chunk) => this.decoder.push(chunk),
      end: () => {
        this.decoder.end();
        this.close("eof", "the host closed stdin");
      },
      failed: (err) => this.writeFailed(err),
    });
  }

  setMaxBytes(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.decoder.setMaxBytes(maxBytes);
  }

  get isClosed(): boolean {
    return this.closedReason !== undefined;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  // ---- inbound

  private onLine(text: string): void {
    let msg: unknown;
    try {
      msg = parseFrame(text);
    } catch (err) {
      if (err instanceof WireRuleError && this.refuseRuleBreak(err, text)) return;
      this.fault(ErrorCode.PARSE_ERROR, `invalid JSON (${(err as Error).message})`, excerptOf(text));
      return;
    }
    if (!isObject(msg)) {
      const what = Array.isArray(msg) ? "a batch (JSON array); batches are not supported" : `a ${msg === null ? "null" : typeof msg}, not an object`;
      this.fault(ErrorCode.INVALID_REQUEST, `frame is ${what}`, excerptOf(text));
      return;
    }
    const method = msg["method"];
    const hasId = "id" in msg;
    const id = msg["id"];
    if (msg["jsonrpc"] !== "2.0") {
      this.refuse(hasId ? id : null, `frame has jsonrpc ${JSON.stringify(msg["jsonrpc"] ?? null)}, expected "2.0"`, text);
      return;
    }
    if (method !== undefined) {
      if (hasId && !isValidId(id)) {
        this.refuse(null, `request id ${JSON.stringify(id)} is not an integer ≥ 0 or a string of 1..${MAX_ID_BYTES} bytes`, text);
        return;
      }
      const unknown = onlyKeys(msg, REQUEST_KEYS);
      const params = msg["params"];
      let problem: string | undefined;
      if (typeof method !== "string" || method === "") problem = "method must be a non-empty string";
      else if (unknown !== undefined) problem = `unknown envelope field '${unknown}'`;
      else if (params !== undefined && !isObject(params)) problem = "params must be an object when present";
      if (problem !== undefined) {
        if (hasId) this.refuse(id as Id, problem, text);
        else this.log.warning("dropped a malformed notification", { reason: problem, excerpt: excerptOf(text) });
        return;
      }
      if (hasId) this.handlers.request(id as Id, method as string, params as JsonObject | undefined);
      else this.handlers.notification(method as string, params as JsonObject | undefined);
      return;
    }
    if (hasId && ("result" in msg || "error" in msg)) {
      this.onResponse(msg, id, text);
      return;
    }
    this.refuse(hasId && isValidId(id) ? id : null, "frame is neither a request, a notification nor a response", text);
  }

  /** Whether id is one this side sent: a counter value, bare (0.1) or with the ts: prefix. */
  private issued(id: unknown): boolean {
    const n = typeof id === "number" ? id : typeof id === "string" && /^ts:[1-9][0-9]*$/.test(id) ? Number(id.slice(3)) : 0;
    return n >= 1 && n <= this.counter;
  }

  private onResponse(msg: JsonObject, id: unknown, text: string): void {
    const call = isValidId(id) ? this.pending.get(id) : undefined;
    if (call === undefined) {
      if (!this.issued(id)) {
        // Not a late answer: the host answers an id this side never sent (wire.md §1).
        this.fault(ErrorCode.INVALID_REQUEST, `response to id ${JSON.stringify(id) ?? "undefined"}, which this side never issued`, excerptOf(text));
        return;
      }
      // A late reply to a call we cancelled: dropped, as wire.md §1 says.
      this.log.debug("dropped a response to a finished id", { id: JSON.stringify(id) });
      return;
    }
    this.pending.delete(id as Id);
    const unknown = onlyKeys(msg, RESPONSE_KEYS);
    if (unknown !== undefined || ("result" in msg && "error" in msg)) {
      call.reject(new ProtocolError(`malformed response: ${unknown !== undefined ? `unknown field '${unknown}'` : "both result and error"} (${excerptOf(text)})`));
      return;
    }
    if ("error" in msg) {
      const e = msg["error"];
      if (!isObject(e) || !Number.isSafeInteger(e["code"]) || typeof e["message"] !== "string") {
        call.reject(new ProtocolError(`malformed error object in response: ${excerptOf(text)}`));
        return;
      }
      call.reject(new RemoteError(e["code"] as number, e["message"], e["data"]));
      return;
    }
    call.resolve(msg["result"] as JsonValue);
  }

  /**
   * A request that is JSON but breaks a wire rule (a repeated key, a lone surrogate) is
   * answered and the stream goes on, as in the Go and Python SDKs: -32600 when the envelope
   * repeats a key, else -32602. A notification is dropped; false leaves anything else (a
   * response, a non-object) to the caller as a protocol fault.
   */
  private refuseRuleBreak(err: WireRuleError, text: string): boolean {
    const msg = err.value;
    if (!isObject(msg) || typeof msg["method"] !== "string") return false;
    if (!("id" in msg)) {
      this.log.warning("dropped a malformed notification", { reason: err.message, excerpt: excerptOf(text) });
      return true;
    }
    const id = msg["id"];
    if (!isValidId(id)) return false;
    if (err.envelope) this.writeError(id, { code: ErrorCode.INVALID_REQUEST, message: `invalid request: ${err.message}` });
    else this.writeError(id, { code: ErrorCode.INVALID_PARAMS, message: `invalid params: ${err.message}`, data: { reason: err.message } });
    return true;
  }

  /**
   * Answer an invalid frame with -32600 and keep reading. The schema has no `id: null`, so a
   * frame whose id cannot be read is only logged.
   */
  private refuse(id: unknown, reason: string, text: string): void {
    this.log.warning("refused an invalid frame", { reason, excerpt: excerptOf(text) });
    if (isValidId(id)) this.writeError(id, { code: ErrorCode.INVALID_REQUEST, message: `invalid request: ${reason}`, data: { excerpt: excerptOf(text) } });
  }

  /**
   * A framing-level fault: stop reading, fail everything pending, close. The reason (with the
   * frame's first bytes) goes to the stderr log: there is no request id to answer.
   */
  private fault(code: number, reason: string, excerpt: string): void {
    if (this.closedReason !== undefined) return;
    this.log.error("protocol error from the host; closing the connection", { code, reason, excerpt });
    this.close("fault", `${reason}: ${excerpt}`);
  }

  close(kind: "eof" | "fault", reason: string): void {
    if (this.readClosed) return;
    this.readClosed = true;
    // After stdin EOF the host may still read stdout: answers of the drain are still written.
    // After a fault the stream is unusable in both directions.
    if (kind === "fault") this.closedReason = reason;
    this.decoder.stop();
    this.transport.stop();
    const err = new TransportError(`connection closed: ${reason}`);
    for (const call of this.pending.values()) call.reject(err);
    this.pending.clear();
    this.handlers.closed(kind, reason);
  }

  // ---- outbound (the single writer)

  private writeLine(line: string, answer = false): boolean {
    try {
      if (answer && this.transport.writeAnswer !== undefined) this.transport.writeAnswer(line);
      else this.transport.write(line);
      return true;
    } catch (err) {
      this.writeFailed(err as Error);
      return false;
    }
  }

  /** The host stopped reading (EPIPE): the connection is gone in both directions. */
  private writeFailed(err: Error): void {
    const reason = `writing to the host failed: ${err.message}`;
    this.closedReason = reason;
    this.close("eof", reason);
  }

  private fits(line: string): number | undefined {
    // UTF-8 needs at most 3 bytes per UTF-16 unit, so short strings skip the byte count.
    if ((line.length - 1) * 3 <= this.maxBytes) return undefined;
    const bytes = Buffer.byteLength(line) - 1;
    return bytes > this.maxBytes ? bytes : undefined;
  }

  /**
   * Answer a request. A result that would exceed the frame bound is never written: the host
   * gets -32603 naming the size and the limit instead.
   */
  respond(id: Id, result: JsonValue): void {
    let body: string;
    try {
      body = JSON.stringify(result);
    } catch (err) {
      this.writeError(id, { code: ErrorCode.INTERNAL_ERROR, message: `result is not JSON-serialisable: ${(err as Error).message}` });
      return;
    }
    const line = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${body}}\n`;
    const over = this.fits(line);
    if (over !== undefined) {
      this.writeError(id, {
        code: ErrorCode.INTERNAL_ERROR,
        message: `result of ${over} bytes exceeds the message limit of ${this.maxBytes} bytes`,
        data: { size: over, limit: this.maxBytes },
      });
      return;
    }
    if (this.closedReason === undefined) this.writeLine(line, true);
  }

  writeError(id: Id, error: WireError): void {
    if (this.closedReason !== undefined) return;
    let line = JSON.stringify({ jsonrpc: "2.0", id, error }) + "\n";
    if (this.fits(line) !== undefined) {
      // Oversized error data is dropped rather than breaking the frame bound.
      line = JSON.stringify({ jsonrpc: "2.0", id, error: { code: error.code, message: error.message.slice(0, 1024) } }) + "\n";
    }
    this.writeLine(line, true);
  }

  private encode(frame: JsonObject): string {
    const line = JSON.stringify(frame) + "\n";
    const over = this.fits(line);
    if (over !== undefined) {
      throw new ValidationError(`${String(frame["method"])} frame of ${over} bytes exceeds the message limit of ${this.maxBytes} bytes`);
    }
    return line;
  }

  notify(method: string, params: JsonObject): void {
    if (this.closedReason !== undefined) throw new TransportError(`cannot send ${method}: connection closed (${this.closedReason})`);
    this.writeLine(this.encode({ jsonrpc: "2.0", method, params }));
  }

  /** Send a request to the host; `signal` cancels it ($/cancelRequest, then CancelledError). */
  request(method: string, params: JsonObject, signal?: AbortSignal): Promise<JsonValue> {
    if (this.closedReason !== undefined || this.readClosed) {
      return Promise.reject(new TransportError(`cannot send ${method}: the host closed the connection${this.closedReason ? ` (${this.closedReason})` : ""}`));
    }
    if (signal?.aborted) return Promise.reject(new CancelledError(`${method} not sent: the request was cancelled`));
    this.counter += 1;
    const id: Id = this.idStyle === "string" ? `ts:${this.counter}` : this.counter;
    let line: string;
    try {
      line = this.encode({ jsonrpc: "2.0", id, method, params });
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<JsonValue>((resolve, reject) => {
      let onAbort: (() => void) | undefined;
      if (signal !== undefined) {
        onAbort = () => {
          if (!this.pending.delete(id)) return;
          if (this.canCancel && this.closedReason === undefined) this.writeLine(JSON.stringify({ jsonrpc: "2.0", method: Method.CANCELREQUEST, params: { id } }) + "\n");
          reject(new CancelledError(`${method} cancelled`));
        };
        signal.addEventListener("abort", onAbort, { once: true });
      }
      const done = () => {
        if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
      };
      this.pending.set(id, {
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      this.writeLine(line);
    });
  }
}
