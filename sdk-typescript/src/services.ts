// The service objects of an extension (ext.kv, ext.ui, ext.agents, ...): the generated
// operations (generated/services.ts, one per method the extension sends, all built on the
// session's send) plus the hand-written conveniences of schema/sdk-surface.json, and the few
// rules the schema cannot state (a presentation revision above the last, an approval token
// only with "ask", an artifact path inside the scratch directory, the decoded inline size). Bounds and shapes are the
// generated validator's, in send.
import { isAbsolute, posix } from "node:path";
import { RequestContext, currentContext, type ProgressEvent, type StatusProgress } from "./context.js";
import { ProtocolError, ValidationError } from "./errors.js";
import type { JsonValue } from "./json.js";
import { ARTIFACT_INLINE_MAX_BYTES } from "./limits.js";
import type { CallOptions } from "./generated/requests.js";
import type { KVCommitResult, KVEntry, KVPrecondition, KVWrite, PolicyEvaluateResult } from "./generated/index.js";
import {
  ArtifactsService, KVService, PolicyService, PresentationService, ProgressService,
  type ArtifactsPublishOptions, type KVListOptions, type PolicyEvaluateOptions, type PresentationUpdateOptions,
} from "./generated/services.js";
import type { Session } from "./session.js";
import type { ArtifactRef, PolicyIntent, Snapshot } from "./types.js";

export { AgentsService, SecretsService, UIService } from "./generated/services.js";

/** A KV option: the namespace, the extension's own name when left out. */
export interface NamespaceOption extends CallOptions {
  namespace?: string;
}

/** kv: the generated get, list and commit, and scan, put, delete and transaction on them. */
export class KV extends KVService {
  constructor(private readonly session: Session) {
    super(session);
  }

  /** Every entry under `prefix`, following the list cursors page by page. */
  async *scan(prefix: string, options: Omit<KVListOptions, "cursor"> = {}): AsyncGenerator<KVEntry> {
    let cursor: string | undefined;
    do {
      const page = await this.list(prefix, cursor === undefined ? options : { ...options, cursor });
      yield* page.entries;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** One unconditional put, sent as a commit. */
  put(key: string, value: JsonValue, options: NamespaceOption = {}): Promise<KVCommitResult> {
    return this.transaction(options).put(key, value).commit();
  }

  /** One unconditional delete, sent as a commit. */
  delete(key: string, options: NamespaceOption = {}): Promise<KVCommitResult> {
    return this.transaction(options).delete(key).commit();
  }

  /** A builder of preconditions and writes sent as one commit; `namespace` is its default namespace. */
  transaction(options: NamespaceOption = {}): KVTransaction {
    return new KVTransaction(this, options.namespace ?? this.session.name, options);
  }
}

/** Preconditions (expect, expectAbsent) and writes (put, delete), committed together or not at all. */
export class KVTransaction {
  readonly preconditions: KVPrecondition[] = [];
  readonly writes: KVWrite[] = [];

  constructor(
    private readonly kv: KVService,
    private readonly namespace: string,
    private readonly call: CallOptions,
  ) {}

  /** The commit holds only if `key` is still at `version`. */
  expect(key: string, version: string, options: { namespace?: string } = {}): this {
    this.preconditions.push({ namespace: options.namespace ?? this.namespace, key, version });
    return this;
  }

  /** The commit holds only if `key` is absent. */
  expectAbsent(key: string, options: { namespace?: string } = {}): this {
    this.preconditions.push({ namespace: options.namespace ?? this.namespace, key, absent: true });
    return this;
  }

  put(key: string, value: JsonValue, options: { namespace?: string } = {}): this {
    this.writes.push({ op: "put", namespace: options.namespace ?? this.namespace, key, value });
    return this;
  }

  delete(key: string, options: { namespace?: string } = {}): this {
    this.writes.push({ op: "delete", namespace: options.namespace ?? this.namespace, key });
    return this;
  }

  commit(): Promise<KVCommitResult> {
    return this.kv.commit(this.writes, { ...this.call, preconditions: this.preconditions });
  }
}

/** The context a progress report belongs to: the one given, else the handler running. */
function progressContext(parent: CallOptions["parent"]): RequestContext {
  const ctx = parent ?? currentContext();
  if (!(ctx instanceof RequestContext)) throw new ValidationError("progress needs a running handler: call it from one or pass { parent: ctx }");
  return ctx;
}

/** progress: reports on the call being served; sequence numbers are the context's. */
export class Progress extends ProgressService {
  /**
   * Report progress; false (nothing sent) without request_progress, on API 0.1, or after the
   * call was answered.
   */
  override report(event: ProgressEvent | StatusProgress, options: CallOptions = {}): boolean {
    return progressContext(options.parent).progress(event);
  }

  /** A chunk of a stream's output (UTF-8 text). */
  output(stream: "stdout" | "stderr", data: string, options: CallOptions = {}): boolean {
    return this.report({ type: "output", stream, encoding: "utf8", data }, options);
  }

  /** A decoration of the call in progress (needs progress_decoration). */
  decoration(label: string, detail?: string, options: CallOptions = {}): boolean {
    return this.report(detail === undefined ? { type: "decoration", label } : { type: "decoration", label, detail }, options);
  }
}

/** presentation: snapshots, each revision above the last this extension sent. */
export class Presentation extends PresentationService {
  private last: number | undefined;

  override update(snapshot: Snapshot, options: PresentationUpdateOptions = {}): void {
    if (options.parent !== undefined && options.resourceOwner !== undefined) throw new ValidationError("parent and resourceOwner are mutually exclusive");
    if (this.last !== undefined && snapshot.revision <= this.last) {
      throw new ValidationError(`snapshot revision ${snapshot.revision} is not above the last published revision ${this.last}`, "/revision");
    }
    super.update(snapshot, options);
    this.last = snapshot.revision;
  }
}

/** An artifact's content: bytes (inline, base64 on the wire) or a file under OCTET_EXTENSION_SCRATCH. */
export type ArtifactSource = CallOptions & { mimeType: string; name?: string } & ({ data: Uint8Array } | { path: string; size: number; sha256: string });

/** A scratch-relative artifact path: the host reads it inside the scratch directory only. */
export function scratchPath(path: string): string {
  if (path.includes("\0")) throw new ValidationError("artifact path contains a NUL byte", "/path");
  if (isAbsolute(path) || path.startsWith("/") || /^[A-Za-z]:/.test(path)) {
    throw new ValidationError(`artifact path ${JSON.stringify(path)} is absolute; give a path relative to OCTET_EXTENSION_SCRATCH`, "/path");
  }
  if (path.includes("\\")) throw new ValidationError(`artifact path ${JSON.stringify(path)} contains a backslash`, "/path");
  if (path.split("/").includes("..")) throw new ValidationError(`artifact path ${JSON.stringify(path)} leaves the scratch directory ('..')`, "/path");
  const normal = posix.normalize(path);
  if (normal === "." || normal.endsWith("/")) throw new ValidationError(`artifact path ${JSON.stringify(path)} names a directory`, "/path");
  return normal;
}

/** artifacts: publish takes its source as the options (bytes or a scratch file). */
export class Artifacts extends ArtifactsService {
  override publish(options: ArtifactSource | ArtifactsPublishOptions): Promise<ArtifactRef> {
    if ("data" in options && options.data instanceof Uint8Array) {
      // The schema bounds the base64 text, which cannot say the decoded size exactly.
      if (options.data.byteLength > ARTIFACT_INLINE_MAX_BYTES) {
        throw new ValidationError(`inline artifact of ${options.data.byteLength} bytes exceeds ${ARTIFACT_INLINE_MAX_BYTES}; write it to the scratch directory and publish by path`, "/data");
      }
      const data = Buffer.from(options.data.buffer, options.data.byteOffset, options.data.byteLength).toString("base64");
      return super.publish({ ...options, data });
    }
    if ("path" in options && typeof options.path === "string") return super.publish({ ...options, path: scratchPath(options.path) });
    return super.publish(options as ArtifactsPublishOptions);
  }
}

/** policy: an approval token comes back only with "ask". */
export class Policy extends PolicyService {
  override async evaluate(intent: PolicyIntent, options: PolicyEvaluateOptions = {}): Promise<PolicyEvaluateResult> {
    const r = await super.evaluate(intent, options);
    if (r.approval_token !== undefined && r.decision !== "ask") {
      throw new ProtocolError(`policy/evaluate returned an approval token with decision '${r.decision}'; tokens come only with 'ask'`);
    }
    return r;
  }
}

/** Canonical JSON: object keys sorted, no whitespace (the kv version digest input). */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(",")}}`;
}
