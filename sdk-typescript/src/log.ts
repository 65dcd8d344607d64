// Structured stderr logging: one JSON object per line, {"ts","level","msg",...fields}.
// Written synchronously to fd 2 so a crash right after a log call still leaves the line.
import { writeSync } from "node:fs";
import type { JsonValue } from "./json.js";

export type LogLevel = "debug" | "info" | "warning" | "error";
export type LogFields = { [key: string]: JsonValue | undefined };

export interface LogSink {
  (line: string): void;
}

const stderrSink: LogSink = (line) => {
  try {
    writeSync(2, line);
  } catch {
    // stderr closed: nothing useful left to do with a diagnostic.
  }
};

export class Logger {
  constructor(
    private sink: LogSink = stderrSink,
    private readonly base: LogFields = {},
  ) {}

  /** A logger that adds `fields` to every line (e.g. the request id). */
  child(fields: LogFields): Logger {
    return new Logger(this.sink, { ...this.base, ...fields });
  }

  /** Redirect lines (the testing helper captures them). */
  setSink(sink: LogSink): void {
    this.sink = sink;
  }

  debug(msg: string, fields?: LogFields): void {
    this.write("debug", msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    this.write("info", msg, fields);
  }
  warning(msg: string, fields?: LogFields): void {
    this.write("warning", msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    this.write("error", msg, fields);
  }

  private write(level: LogLevel, msg: string, fields?: LogFields): void {
    // ts/level/msg come first and cannot be overwritten by fields: readers rely on them.
    const ts = new Date().toISOString();
    const record: LogFields = { ts, level, msg, ...this.base, ...fields };
    record["ts"] = ts;
    record["level"] = level;
    record["msg"] = msg;
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch (err) {
      line = JSON.stringify({ ts, level, msg, log_error: `fields not serialisable: ${String(err)}` });
    }
    this.sink(line + "\n");
  }
}
