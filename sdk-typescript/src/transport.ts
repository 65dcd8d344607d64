// How frames reach the extension and leave it. The runtime only sees this interface, so the
// same code serves a real stdio process and the in-process loopback host of ./testing.

/** Receives the host's bytes. */
export interface InboundSink {
  data(chunk: Buffer): void;
  /** The host closed its side (stdin EOF). */
  end(): void;
}

export interface Transport {
  /** Write one complete frame; `line` ends with "\n". Must be synchronous and atomic per call. */
  write(line: string): void;
  /** Begin delivering the host's bytes to `sink`. Called once. */
  start(sink: InboundSink): void;
  /** Stop reading (after a protocol fault or at exit). */
  stop(): void;
}
