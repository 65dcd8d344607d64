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

export class StdioTransport implements Transport {
  private sink: InboundSink | undefined;
  private readonly onData = (chunk: Buffer): void => this.sink?.data(chunk);
  private readonly onEnd = (): void => this.sink?.end();

  constructor(private readonly fd: number) {}

  write(line: string): void {
    // Strings under ~8 KiB are written directly (one syscall, no copy); larger ones go through a
    // Buffer so a partial write can resume at the right byte.
    if (line.length < 8192) {
      let n = 0;
      try {
        n = writeSync(this.fd, line);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      }
      if (n === Buffer.byteLength(line)) return;
      writeAll(this.fd, Buffer.from(line).subarray(n));
      return;
    }
    writeAll(this.fd, Buffer.from(line));
  }

  start(sink: InboundSink): void {
    this.sink = sink;
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
