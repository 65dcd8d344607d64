// The per-request context every handler receives: identity, owner, cancellation, progress.
import { AsyncLocalStorage } from "node:async_hooks";
import { CancelledError, FeatureUnavailableError, ValidationError } from "./errors.js";
import { codePoints, type Id, type JsonObject } from "./json.js";
import type { Logger } from "./log.js";
import type { ResourceOwner } from "./types.js";
import { FeatureName } from "./generated/dispatch.js";

export type ProgressEvent =
  | { type: "status"; message?: string; current?: number; total?: number; unit?: string }
  | { type: "output"; stream: "stdout" | "stderr"; encoding: "utf8" | "base64"; data: string }
  | { type: "decoration"; label: string; detail?: string };

/** Status progress in the short form: `ctx.progress({ message, current, total, unit })`. */
export interface StatusProgress {
  message?: string;
  current?: number;
  total?: number;
  unit?: string;
}

/** What a context needs from the runtime (kept narrow so contexts stay cheap to create). */
export interface ContextRuntime {
  readonly features: ReadonlySet<string>;
  readonly log: Logger;
  sendProgress(parent: Id, sequence: number, event: ProgressEvent): void;
}

const ambient = new AsyncLocalStorage<RequestContext>();

/** The context of the handler currently running, if any (used when no explicit parent is given). */
export function currentContext(): RequestContext | undefined {
  return ambient.getStore();
}

/** Run `fn` with `ctx` as the ambient context. */
export function withContext<T>(ctx: RequestContext, fn: () => T): T {
  return ambient.run(ctx, fn);
}

export class RequestContext {
  private controller: AbortController | undefined;
  private cancelReason: string | undefined;
  private sequence = 0;
  /** Set once the request has been answered; later progress is dropped as stale. */
  settled = false;

  constructor(
    private readonly runtime: ContextRuntime,
    /** The host's id of the request being served. */
    readonly requestId: Id,
    /** The method being served ("tool/call", "command/execute", ...). */
    readonly method: string,
    /** The host-derived owner triple, when the host sent one. */
    readonly resourceOwner: ResourceOwner | undefined,
    /** The id reverse calls quote as parent_request_id; undefined on API 0.1. */
    readonly parentRequestId: Id | undefined,
    /** The tool catalog revision the call was pinned to (tool/call only). */
    readonly catalogRevision?: number,
    /** The host's tool call id (tool/call only). */
    readonly callId?: string,
    /** The caller's idempotency key (tool/call only): the host replays a recorded result for a repeated key. */
    readonly idempotencyKey?: string,
  ) {}

  /** Aborted when the host cancels the request or the extension is stopping. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      // Created on first use: most handlers never look, and AbortController is not free.
      this.controller = new AbortController();
      if (this.cancelReason !== undefined) this.controller.abort(new CancelledError(this.cancelReason));
    }
    return this.controller.signal;
  }

  get cancelled(): boolean {
    return this.cancelReason !== undefined;
  }

  /** Throw CancelledError if the request was cancelled (poll between effects). */
  throwIfCancelled(): void {
    if (this.cancelReason !== undefined) throw new CancelledError(this.cancelReason);
  }

  /** Wait `ms` milliseconds, or reject with CancelledError as soon as the request is cancelled. */
  sleep(ms: number): Promise<void> {
    if (this.cancelReason !== undefined) return Promise.reject(new CancelledError(this.cancelReason));
    const signal = this.signal;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(new CancelledError(this.cancelReason));
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** @internal Cancel the handler (host $/cancelRequest or shutdown). */
  cancel(reason: string): void {
    if (this.cancelReason !== undefined) return;
    this.cancelReason = reason;
    this.controller?.abort(new CancelledError(reason));
  }

  /** A logger whose lines carry this request's id. */
  get log(): Logger {
    return this.runtime.log.child({ request_id: this.requestId, method: this.method });
  }

  /**
   * Emit a $/progress event for this request. Returns false (and sends nothing) when the host
   * did not negotiate request_progress, on API 0.1, or after the request was answered.
   */
  progress(event: ProgressEvent | StatusProgress): boolean {
    const full: ProgressEvent = "type" in event ? (event as ProgressEvent) : { type: "status", ...(event as StatusProgress) };
    if (full.type === "decoration") {
      if (!this.runtime.features.has(FeatureName.PROGRESS_DECORATION)) throw new FeatureUnavailableError(FeatureName.PROGRESS_DECORATION, "progress decoration");
      if (codePoints(full.label) > 64) throw new ValidationError("decoration label is longer than 64 chars", "/label");
      if (full.detail !== undefined && codePoints(full.detail) > 256) throw new ValidationError("decoration detail is longer than 256 chars", "/detail");
    } else if (full.type === "status") {
      for (const key of ["current", "total"] as const) {
        const v = full[key];
        if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v >= 0)) {
          throw new ValidationError(`progress ${key} must be a finite number ≥ 0, got ${String(v)}`, `/${key}`);
        }
      }
    }
    if (this.settled || this.parentRequestId === undefined || !this.runtime.features.has(FeatureName.REQUEST_PROGRESS)) return false;
    this.sequence += 1;
    this.runtime.sendProgress(this.parentRequestId, this.sequence, full);
    return true;
  }

  /** Decorate the running call's progress line (needs progress_decoration). */
  progressDecoration(label: string, detail?: string): boolean {
    return this.progress(detail === undefined ? { type: "decoration", label } : { type: "decoration", label, detail });
  }
}

/** Wire shape of $/progress params. */
export function progressParams(parent: Id, sequence: number, event: ProgressEvent): JsonObject {
  return { parent_request_id: parent, sequence, event: event as unknown as JsonObject };
}
