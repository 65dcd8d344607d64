// KV migrations: author-declared steps from version N to N+1, run before the first KV call.
// The stored version is the integer under `octet:kv_version` in the extension's own namespace
// (absent is version 1); the manifest's `[state] kv_version` is the declared one. Each step's
// writes and the version bump go in one KV commit pinned on the stored version, so two
// generations racing cannot both apply a step. Messages match the Go and Python SDKs.
import { OctetError, RemoteError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json.js";
import * as L from "./limits.js";
import { Requests, type RequestType } from "./generated/requests.js";
import { ErrorCode } from "./generated/errors.js";

/** The key, in the extension's own namespace, holding the stored kv_version. */
export const KV_VERSION_KEY = "octet:kv_version";

/** Each kv_conflict on the version means another generation advanced it; a few suffice. */
const MAX_CONFLICTS = 16;

export type MigrationKind = "kv_migration_failed" | "kv_migration_missing";

/**
 * The KV migration failed; the old data and version stay in force and the next KV call tries
 * again. Not an OctetError on purpose: escaping a handler it is answered as any exception,
 * -32603 `tool "<name>" failed: MigrationError: <message>`, as Go and Python answer.
 */
export class MigrationError extends Error {
  override name = "MigrationError";
  constructor(
    readonly kind: MigrationKind,
    readonly fromVersion: number,
    readonly toVersion: number,
    readonly stored: number,
    readonly declared: number,
    readonly reason = "",
  ) {
    super(
      kind === "kv_migration_missing"
        ? `kv_migration_missing: no kv migration from version ${fromVersion} to ${toVersion} is registered (stored kv_version ${stored}, declared ${declared})`
        : `kv_migration_failed: kv migration from version ${fromVersion} to ${toVersion} failed: ${reason}`,
    );
  }
}

/** A request past the KV gate (the session's call): the steps run before the first KV call. */
type Call = <P, R>(type: RequestType<P, R>, params: JsonObject) => Promise<JsonValue>;

/** One step's view of KV: reads see the committed data (not this step's staged writes); put and delete are committed with the version bump. */
export class MigrationTx {
  readonly writes: JsonObject[] = [];
  constructor(
    private readonly call: Call,
    readonly namespace: string,
  ) {}

  /** The committed value under key, or undefined when absent. */
  async get(key: string, namespace = this.namespace): Promise<JsonValue | undefined> {
    const r = (await this.call(Requests.KV_GET, { namespace, key })) as JsonObject;
    return r["found"] === true ? r["value"] : undefined;
  }

  /** One page of the host's kv.list answer. */
  async list(prefix = "", options: { namespace?: string; cursor?: string } = {}): Promise<JsonObject> {
    const params: JsonObject = { namespace: options.namespace ?? this.namespace, prefix };
    if (options.cursor !== undefined) params["cursor"] = options.cursor;
    return (await this.call(Requests.KV_LIST, params)) as JsonObject;
  }

  put(key: string, value: JsonValue, namespace = this.namespace): void {
    if (key === KV_VERSION_KEY) throw new OctetError(`a migration does not write ${KV_VERSION_KEY}; the SDK does`);
    this.writes.push({ op: "put", namespace, key, value });
  }

  delete(key: string, namespace = this.namespace): void {
    this.writes.push({ op: "delete", namespace, key });
  }
}

export type MigrationStep = (tx: MigrationTx) => Promise<void> | void;

/** The registered steps and the run guard: one run at a time, done once it succeeded. */
export class Migrations {
  readonly steps = new Map<number, MigrationStep>();
  private done = false;
  private running: Promise<void> | undefined;

  register(fromVersion: number, step: MigrationStep): void {
    if (!Number.isSafeInteger(fromVersion) || fromVersion < 1) {
      throw new OctetError(`migration(${String(fromVersion)}): steps start at version 1 (data stored without a version is version 1)`);
    }
    if (typeof step !== "function") throw new OctetError("migration needs a function");
    if (this.steps.has(fromVersion)) throw new OctetError(`migration(${fromVersion}) is registered twice`);
    this.steps.set(fromVersion, step);
  }

  /** Run the missing steps before the first KV call; rejects with MigrationError. */
  async ensure(call: Call, namespace: string, manifest: JsonObject | undefined): Promise<void> {
    if (this.done) return;
    if (this.running === undefined) {
      this.running = run(this.steps, call, namespace, declared(manifest)).then(
        () => {
          this.done = true;
        },
        (err: unknown) => {
          this.running = undefined; // the next KV call tries again
          throw err;
        },
      );
    }
    return this.running;
  }
}

function declared(manifest: JsonObject | undefined): number {
  const state = manifest?.["state"];
  const v = state !== null && typeof state === "object" && !Array.isArray(state) ? state["kv_version"] : undefined;
  return typeof v === "number" && Number.isSafeInteger(v) ? v : 0;
}

async function stored(call: Call, namespace: string): Promise<[number, JsonObject]> {
  const r = (await call(Requests.KV_GET, { namespace, key: KV_VERSION_KEY })) as JsonObject;
  if (r["found"] !== true) return [1, { namespace, key: KV_VERSION_KEY, absent: true }];
  const v = r["value"];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) {
    throw new OctetError(`the stored ${KV_VERSION_KEY} is ${JSON.stringify(v)}, not a non-negative integer`);
  }
  return [v, { namespace, key: KV_VERSION_KEY, version: r["version"] as string }];
}

/** A failure as the three SDKs word it: a host error as "host error <code>: <message>". */
const reasonOf = (err: unknown): string =>
  err instanceof RemoteError ? `host error ${err.code}: ${err.message}` : err instanceof Error ? err.message : String(err);

async function run(steps: ReadonlyMap<number, MigrationStep>, call: Call, namespace: string, declaredVersion: number): Promise<void> {
  if (declaredVersion <= 1) return; // data stored without a version is version 1: nothing to read or run
  for (let conflicts = 0; ; ) {
    let version: number;
    let pin: JsonObject;
    try {
      [version, pin] = await stored(call, namespace);
    } catch (err) {
      throw new MigrationError("kv_migration_failed", 0, declaredVersion, 0, declaredVersion, reasonOf(err));
    }
    if (version >= declaredVersion) return; // up to date (a newer stored version is the host's state_downgrade)
    const step = steps.get(version);
    if (step === undefined) throw new MigrationError("kv_migration_missing", version, version + 1, version, declaredVersion);
    const fail = (reason: string) => new MigrationError("kv_migration_failed", version, version + 1, version, declaredVersion, reason);
    const tx = new MigrationTx(call, namespace);
    try {
      await step(tx);
      const writes = [...tx.writes, { op: "put", namespace, key: KV_VERSION_KEY, value: version + 1 }];
      if (writes.length > L.KV_MAX_BATCH) throw new OctetError(`the step stages ${tx.writes.length} writes; one KV commit holds ${L.KV_MAX_BATCH - 1} with the version`);
      await call(Requests.KV_COMMIT, { preconditions: [pin], writes });
    } catch (err) {
      if (err instanceof RemoteError && err.code === ErrorCode.KV_CONFLICT) {
        if (conflicts >= MAX_CONFLICTS) throw fail("the stored version kept changing");
        conflicts++; // another generation moved the version first: re-read
        continue;
      }
      throw fail(reasonOf(err));
    }
  }
}
