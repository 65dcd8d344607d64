// Admission: the in-flight table, the bounded queue in front of the pool and the pool itself.
// A job starts at once while fewer than `concurrency` run, waits in the queue while it has
// room, and is refused -32005 otherwise; every answer goes through the connection, which is
// the single writer. Cancellation and the shutdown drain work on the same table.
import type { Connection } from "./connection.js";
import { withContext } from "./context.js";
import { toWireError } from "./errors.js";
import type { Id, JsonValue } from "./json.js";
import * as L from "./limits.js";
import type { Logger } from "./log.js";
import type { Job } from "./dispatch.js";

export class Admission {
  /** Pool size; set from negotiation. */
  concurrency = 1;
  private readonly inflight = new Map<Id, Job>();
  private readonly queue: Job[] = [];
  private running = 0;
  private drainWaiters: (() => void)[] = [];

  constructor(
    private readonly conn: Connection,
    private readonly log: Logger,
    /** Admission queue length; lowered by negotiation. */
    public pendingLimit: number,
  ) {}

  has(id: Id): boolean {
    return this.inflight.has(id);
  }

  get size(): number {
    return this.inflight.size;
  }

  ids(): Id[] {
    return [...this.inflight.keys()];
  }

  admit(job: Job): void {
    if (this.inflight.size >= L.MAX_IN_FLIGHT) {
      this.conn.writeError(job.id, { code: L.ErrorCode.OVERLOADED, message: `overloaded: ${L.MAX_IN_FLIGHT} requests already in flight`, data: { limit: L.MAX_IN_FLIGHT } });
      return;
    }
    if (this.running < this.concurrency) {
      this.inflight.set(job.id, job);
      this.start(job);
    } else if (this.queue.length < this.pendingLimit) {
      this.inflight.set(job.id, job);
      this.queue.push(job);
    } else {
      this.conn.writeError(job.id, { code: L.ErrorCode.OVERLOADED, message: `overloaded: the admission queue of ${this.pendingLimit} is full`, data: { limit: this.pendingLimit } });
    }
  }

  /** Cancel one job: a queued one leaves the queue; either way it is answered -32800 now. */
  cancel(id: Id, reason: string): void {
    const job = this.inflight.get(id);
    if (job === undefined || job.ctx.settled) return; // unknown or finished: ignored
    if (!job.started) {
      const i = this.queue.indexOf(job);
      if (i >= 0) this.queue.splice(i, 1);
    }
    job.ctx.cancel(reason);
    job.ctx.settled = true;
    this.inflight.delete(id);
    this.conn.writeError(id, { code: L.ErrorCode.REQUEST_CANCELLED, message: reason });
    this.pump();
  }

  /** Resolves once nothing is in flight, or after `ms`. */
  drain(ms: number): Promise<void> {
    if (this.inflight.size === 0 || ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.drainWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
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
        this.conn.respond(job.id, result);
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
    this.conn.writeError(job.id, wire);
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
}
