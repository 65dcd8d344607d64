// How frames reach the extension and leave it. The runtime only sees this interface, so the
// same code serves a real stdio process and the in-process loopback host of ./testing.

/** Receives the host's bytes. */
export interface InboundSink {
  data(chunk: Buffer): void;
  /** The host closed its side (stdin EOF). */
  end(): void;
  /**
   * A write the transport deferred failed (the host stopped reading): the connection is gone in
   * both directions. A transport whose write() throws instead never calls it.
   */
  failed?(err: Error): void;
}

export interface Transport {
  /** Write one complete frame; `line` ends with "\n". Must be synchronous and atomic per call. */
  write(line: string): void;
  /**
   * Write the answer to a request. A transport may hold it until the current tick's JavaScript
   * is done, so that the answers settled together leave in one write (the stdio transport does,
   * reporting a failure then through InboundSink.failed); write() sends what is held first, so
   * frames keep their order. Without it, answers go through write().
   */
  writeAnswer?(line: string): void;
  /** Begin delivering the host's bytes to `sink`. Called once. */
  start(sink: InboundSink): void;
  /** Stop reading (after a protocol fault or at exit). */
  stop(): void;
}
