// The two ways a scripted host reaches an extension: in-process (an in-memory Transport given
// to ext.serve) and a real child process speaking JSON lines over its stdio.
import { spawn, type ChildProcess } from "node:child_process";
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

/** Spawn `command args` as a child process and speak to it over its stdio. */
export function processLink(command: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Link {
  const child: ChildProcess = spawn(command, args, {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...env },
    ...(cwd !== undefined ? { cwd } : {}),
  });
  const stderr: string[] = [];
  let listener: ((line: string) => void) | undefined;
  const early: string[] = [];
  let buffered = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (listener) listener(line);
      else early.push(line);
    }
  });
  let errBuf = "";
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    errBuf += chunk;
    let nl: number;
    while ((nl = errBuf.indexOf("\n")) >= 0) {
      stderr.push(errBuf.slice(0, nl));
      errBuf = errBuf.slice(nl + 1);
    }
  });
  // Writing to a child that already exited raises EPIPE on stdin; the exit is what matters.
  child.stdin!.on("error", () => undefined);
  const exited = new Promise<Exit>((resolve) => {
    child.on("close", (code, signal) => {
      if (errBuf !== "") stderr.push(errBuf);
      if (buffered !== "" && listener) listener(buffered);
      resolve({ code, signal });
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
