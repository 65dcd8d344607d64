// JSON-lines framing: bytes in, complete lines out, with the message bound enforced while
// bytes arrive (an endless line is refused before it is buffered, not after).
import { isUtf8 } from "node:buffer";

export interface LineSink {
  line(text: string): void;
  /** A frame broke the framing rules; the reader must stop. `excerpt` is its first bytes. */
  fault(reason: string, excerpt: string): void;
}

const NEWLINE = 10;
const EXCERPT_BYTES = 64;

export function excerptOf(bytes: Buffer | string): string {
  const text = typeof bytes === "string" ? bytes : bytes.subarray(0, EXCERPT_BYTES * 2).toString("utf8");
  return text.length > EXCERPT_BYTES ? text.slice(0, EXCERPT_BYTES) + "…" : text;
}

export class LineDecoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private stopped = false;

  constructor(
    private readonly sink: LineSink,
    private maxBytes: number,
  ) {}

  setMaxBytes(maxBytes: number): void {
    this.maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    if (this.stopped) return;
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl < 0) break;
      let line: Buffer;
      if (this.pendingBytes === 0) {
        line = chunk.subarray(start, nl);
      } else {
        this.pending.push(chunk.subarray(start, nl));
        line = Buffer.concat(this.pending, this.pendingBytes + nl - start);
        this.pending = [];
        this.pendingBytes = 0;
      }
      start = nl + 1;
      if (!this.emit(line)) return;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pendingBytes += rest.length;
      if (this.pendingBytes > this.maxBytes) {
        this.stopped = true;
        const head = this.pending[0] ?? rest;
        this.sink.fault(`frame exceeds the limit of ${this.maxBytes} bytes`, excerptOf(head));
        return;
      }
      // Copy: the caller may reuse the chunk's memory after push returns.
      this.pending.push(Buffer.from(rest));
    }
  }

  /** Bytes left without a newline at EOF are an incomplete frame. */
  end(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.pendingBytes > 0) {
      this.sink.fault("stream ended inside a frame (no terminating newline)", excerptOf(Buffer.concat(this.pending)));
    }
  }

  private emit(line: Buffer): boolean {
    if (line.length > this.maxBytes) {
      this.stopped = true;
      this.sink.fault(`frame of ${line.length} bytes exceeds the limit of ${this.maxBytes} bytes`, excerptOf(line));
      return false;
    }
    // A blank line is passed on like any other: it is not JSON, so the frame parser
    // refuses it (a framing fault, as in Go and Python; wire.md §1).
    if (!isUtf8(line)) {
      this.stopped = true;
      this.sink.fault("frame is not valid UTF-8", excerptOf(line));
      return false;
    }
    this.sink.line(line.toString("utf8"));
    return !this.stopped;
  }

  stop(): void {
    this.stopped = true;
  }
}
