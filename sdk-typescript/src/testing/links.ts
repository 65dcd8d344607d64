// The two ways a scripted host reaches an extension: in-process (an in-memory Transport given
// to ext.serve) and a real child process speaking JSON lines over its stdio.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { Extension, ServeResult } from "../extension.js";
import type { InboundSink, Transport } from "../transport.js";

export interface Exit {
  code: number | null;
  signal?: string | null;
  reason?: ServeResult["reason"];
  detail?: string;
}

/** The host's end of a connection to one extension. */
export interface Link {
  /** Send bytes to the extension (normally one line with its "\n"). */
  send(text: string): void;
  /** Close the extension's stdin. */
  end(): void;
  /** Register the receiver of complete lines from the extension. */
  onLine(listener: (line: string) => void): void;
  /** Resolves once the extension has stopped. */
  readonly exited: Promise<Exit>;
  /** Structured stderr lines (parsed when JSON, raw otherwise). */
  readonly stderr: string[];
  kill(): void;
}

/** Run `ext` in this process over an in-memory transport; its logs are captured, not printed. */
export function inProcessLink(ext: Extension): Link {
  let sink: InboundSink | undefined;
  let listener: ((line: string) => void) | undefined;
  const early: string[] = [];
  const stderr: string[] = [];
  let stopped = false;
  ext.log.setSink((line) => stderr.push(line.trimEnd()));
  const transport: Transport = {
    write(line) {
      // Delivered on a microtask, as a pipe would: no re-entrancy into the host's handler.
      queueMicrotask(() => {
        const text = line.endsWith("\n") ? line.slice(0, -1) : line;
        if (listener) listener(text);
        else early.push(text);
      });
    },
    start(s) {
      sink = s;
    },
    stop() {
      stopped = true;
    },
  };
  const exited = ext.serve(transport).then((r): Exit => ({ code: r.code, reason: r.reason, detail: r.detail }));
  return {
    send(text) {
      const s = sink;
      if (s === undefined || stopped) return;
      queueMicrotask(() => {
        if (!stopped) s.data(Buffer.from(text));
      });
    },
    end() {
      const s = sink;
      if (s !== undefined) queueMicrotask(() => s.end());
    },
    onLine(l) {
      listener = l;
      for (const line of early.splice(0)) l(line);
    },
    exited,
    stderr,
    kill() {
      stopped = true;
      sink?.end();
    },
  };
}

/**
 * Real pipes (FIFOs) for the child's stdout and stderr. Node's own "pipe" stdio is a socketpair,
 * but hosts such as Go's os/exec give extensions pipes, and only a pipe (or file) can be reopened
 * through /proc/self/fd, which the SDK's stdout protection relies on.
 */
function fifo(name: string): { readFd: number; writeFd: number } {
  const dir = mkdtempSync(join(tmpdir(), "octet-fifo-"));
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  const readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(path, constants.O_WRONLY);
  // Both ends are open: the name is no longer needed.
  rmSync(dir, { recursive: true, force: true });
  return { readFd, writeFd };
}

export interface ProcessLinkOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** "fifo" (default): real pipes for stdout/stderr; "socket": Node's socketpairs. */
  stdout?: "fifo" | "socket";
}

function lines(stream: Readable, sink: (line: string) => void): Promise<void> {
  let buffered = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      sink(line);
    }
  });
  return new Promise<void>((resolve) =>
    stream.on("close", () => {
      if (buffered !== "") sink(buffered);
      resolve();
    }),
  );
}

/** Spawn `command args` as a child process and speak to it over its stdio. */
export function processLink(command: string, args: string[], options: ProcessLinkOptions = {}): Link {
  const pipes = options.stdout === "socket" || process.platform === "win32" ? undefined : { out: fifo("stdout"), err: fifo("stderr") };
  const child: ChildProcess = spawn(command, args, {
    stdio: ["pipe", pipes === undefined ? "pipe" : pipes.out.writeFd, pipes === undefined ? "pipe" : pipes.err.writeFd],
    env: { ...process.env, ...options.env },
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
  });
  let stdout: Readable;
  let stderrStream: Readable;
  if (pipes !== undefined) {
    // The child holds its own copies of the write ends; ours must close so EOF can arrive.
    closeSync(pipes.out.writeFd);
    closeSync(pipes.err.writeFd);
    stdout = new Socket({ fd: pipes.out.readFd, readable: true, writable: false });
    stderrStream = new Socket({ fd: pipes.err.readFd, readable: true, writable: false });
  } else {
    stdout = child.stdout!;
    stderrStream = child.stderr!;
  }
  const stderr: string[] = [];
  let listener: ((line: string) => void) | undefined;
  const early: string[] = [];
  const outDone = lines(stdout, (line) => {
    if (listener) listener(line);
    else early.push(line);
  });
  const errDone = lines(stderrStream, (line) => stderr.push(line));
  // Writing to a child that already exited raises EPIPE on stdin; the exit is what matters.
  child.stdin!.on("error", () => undefined);
  // Done once the process exited and both streams are drained (Node does not know the FIFOs
  // belong to the child, so its "close" event does not wait for them).
  const exited = new Promise<Exit>((resolve) => {
    child.on("exit", (code, signal) => {
      void Promise.all([outDone, errDone]).then(() => resolve({ code, signal }));
    });
  });
  return {
    send(text) {
      if (child.stdin!.writable) child.stdin!.write(text);
    },
    end() {
      child.stdin!.end();
    },
    onLine(l) {
      listener = l;
      for (const line of early.splice(0)) l(line);
    },
    exited,
    stderr,
    kill() {
      child.kill("SIGKILL");
    },
  };
}
