// The stdio transport, and the protection of the protocol stream against stray output.
//
// Node has no dup()/dup2(). What it can do on Linux (and macOS via /dev/fd) is open a second
// description of whatever fd 1 refers to through /proc/self/fd/1, and, because open() returns
// the lowest free descriptor, close fd 1 and immediately reopen stderr so it lands on fd 1.
// After that, console.log, process.stdout and child processes spawned with stdio 'inherit'
// all write to stderr, and only this module holds the protocol descriptor.
// Limits of the approach are documented in docs/typescript.md ("Protecting stdout").
import { closeSync, openSync, writeSync } from "node:fs";
import type { InboundSink, Transport } from "./transport.js";

export interface ProtectedStdout {
  /** The descriptor protocol frames are written to. */
  fd: number;
  /** True when fd 1 now points at stderr (full protection). */
  redirected: boolean;
  /** Why protection is partial, when it is. */
  note?: string;
}

function reopen(fdPath: string): number | undefined {
  try {
    return openSync(fdPath, "a");
  } catch {
    return undefined;
  }
}

/**
 * Move the protocol off fd 1. Must run before anything touches process.stdout; the SDK does it
 * at the start of Extension.run().
 */
export function protectStdout(): ProtectedStdout {
  const proc = process.platform === "linux" ? "/proc/self/fd/" : "/dev/fd/";
  const protocolFd = reopen(proc + "1");
  if (protocolFd === undefined) {
    // fd 1 is a socket or the platform has no fd directory: keep writing to fd 1 and divert the
    // JavaScript-level writers instead; child processes can still reach fd 1.
    divertJavaScriptStdout();
    return { fd: 1, redirected: false, note: `cannot reopen ${proc}1; only console/process.stdout are diverted` };
  }
  closeSync(1);
  // open() returns the lowest free descriptor, which is now 1. Stderr first; when fd 2 cannot be
  // reopened (a socket), /dev/null: a lost stray line is better than a corrupted stream.
  let note: string | undefined;
  let replacement = reopen(proc + "2");
  if (replacement === undefined) {
    replacement = reopen("/dev/null");
    note = "fd 2 cannot be reopened (a socket?); stray stdout output is discarded";
  }
  if (replacement !== 1) {
    // Another thread took the slot between close and open: put fd 1 back to the protocol so
    // output stays correct, and fall back to diverting JavaScript writers.
    if (replacement !== undefined) closeSync(replacement);
    const back = reopen(`${proc}${protocolFd}`);
    if (back !== undefined && back !== 1) closeSync(back);
    divertJavaScriptStdout();
    return { fd: protocolFd, redirected: false, note: "fd 1 could not be replaced; only console/process.stdout are diverted" };
  }
  return note === undefined ? { fd: protocolFd, redirected: true } : { fd: protocolFd, redirected: true, note };
}

/** Point process.stdout.write (used by console.log) at stderr. */
function divertJavaScriptStdout(): void {
  const stderr = process.stderr;
  process.stdout.write = stderr.write.bind(stderr) as typeof process.stdout.write;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Write all of `buf` to a descriptor, synchronously, retrying partial and EAGAIN writes. */
export function writeAll(fd: number, buf: Buffer): void {
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      // Non-blocking descriptor with a full pipe: yield the CPU briefly, then retry.
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
}

/**
 * Write one or more frames to a descriptor: strings under ~8 KiB are written directly (one
 * syscall, no copy); larger ones, and the rest of a partial write, go through a Buffer so the
 * write resumes at the right byte.
 */
export function writeText(fd: number, text: string): void {
  if (text.length < 8192) {
    let n = 0;
    try {
      n = writeSync(fd, text);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
    }
    if (n === Buffer.byteLength(text)) return;
    writeAll(fd, Buffer.from(text).subarray(n));
    return;
  }
  writeAll(fd, Buffer.from(text));
}

/** Held answers past this many UTF-16 code units are written at once (see StdioTransport.queued). */
const ANSWER_BATCH_CHARS = 64 * 1024;

export class StdioTransport implements Transport {
  private sink: InboundSink | undefined;
  private readonly onData = (chunk: Buffer): void => this.sink?.data(chunk);
  private readonly onEnd = (): void => this.sink?.end();
  /**
   * Answers written since the last flush. The answers of requests that arrive in one chunk (or
   * settle in one turn of the microtask queue) leave in one write(2) instead of one each; a
   * lone answer is not delayed, since the flush runs as soon as the current tick's JavaScript
   * is done, before the event loop waits for input again. Other frames (progress, requests to
   * the host) are written at once, after what is held, so a handler that never yields still
   * reports progress; past ANSWER_BATCH_CHARS the batch is written at once, so a burst keeps
   * the pipe's backpressure instead of growing the heap.
   */
  private queued: string[] = [];
  private queuedBytes = 0;
  private flushScheduled = false;
  /** A deferred write failed: later writes throw it at once. */
  private broken: Error | undefined;
  private readonly flushQueued = (): void => this.flush();
  /** Kept after stop(): the answers of the drain are still written after stdin's EOF. */
  private onFailure: ((err: Error) => void) | undefined;

  constructor(private readonly fd: number) {
    // process.exit() (the SDK's own at the end of run(), or a handler's) skips the tick queue:
    // answers already written must still leave.
    process.once("exit", this.flushQueued);
  }

  write(line: string): void {
    if (this.broken !== undefined) throw this.broken;
    if (this.queued.length === 0) {
      writeText(this.fd, line);
      return;
    }
    this.queued.push(line);
    this.writeQueued(true);
  }

  writeAnswer(line: string): void {
    if (this.broken !== undefined) throw this.broken;
    this.queued.push(line);
    this.queuedBytes += line.length;
    if (this.queuedBytes >= ANSWER_BATCH_CHARS) {
      this.writeQueued(true);
      return;
    }
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      process.nextTick(this.flushQueued);
    }
  }

  /** Write every held answer now (the end of the tick, or process exit). */
  flush(): void {
    this.flushScheduled = false;
    if (this.queued.length > 0) this.writeQueued(false);
  }

  /** One write of everything held; `rethrow` when called from write()/writeAnswer(), whose caller handles the error. */
  private writeQueued(rethrow: boolean): void {
    const text = this.queued.length === 1 ? this.queued[0]! : this.queued.join("");
    this.queued = [];
    this.queuedBytes = 0;
    try {
      writeText(this.fd, text);
    } catch (err) {
      // The host stopped reading (EPIPE): nothing held can be delivered either.
      this.broken = err as Error;
      if (rethrow) throw err;
      this.onFailure?.(this.broken);
    }
  }

  start(sink: InboundSink): void {
    this.sink = sink;
    this.onFailure = sink.failed?.bind(sink);
    process.stdin.on("data", this.onData);
    process.stdin.on("end", this.onEnd);
    process.stdin.on("error", this.onEnd);
  }

  stop(): void {
    process.stdin.off("data", this.onData);
    process.stdin.pause();
    this.sink = undefined;
  }
}
