// Default, deterministic answers to every reverse call, as a scriptable host would give them.
// Tests override any of them through HostScript.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, type JsonObject, type JsonValue } from "../json.js";
import { ErrorCode } from "../limits.js";
import { canonicalJson } from "../services.js";
import type { WireError } from "../errors.js";
import type { AgentRecord, PolicyDecision } from "../types.js";
import { Requests, type RequestType } from "../generated/requests.js";
import { checkWire } from "../wirecheck.js";

/** One row of the fake host: the descriptor it answers and how. */
interface Route {
  readonly type: RequestType<unknown, unknown>;
  handle(params: JsonObject): unknown;
}

/** A row typed by its descriptor: the handler sees the params type and returns the result type (or a scripted error). */
function route<P, R>(type: RequestType<P, R>, handle: (params: P) => R | HostReply | Promise<R | HostReply>): Route {
  return { type: type as RequestType<unknown, unknown>, handle: (params) => handle(params as unknown as P) };
}

function routes(list: Route[]): ReadonlyMap<string, Route> {
  return new Map(list.map((r) => [r.type.method, r]));
}

/** A scripted reply: a result, or an error to send back. */
export type HostReply = { result: JsonValue } | { error: WireError };

export interface HostScript {
  /** confirmation/request answer (default false: nobody there to confirm). */
  confirm?: (params: JsonObject) => boolean | Promise<boolean>;
  /** input/request answer (default null: headless). */
  input?: (params: JsonObject) => string | null | Promise<string | null>;
  /** Secrets the broker knows; others answer -32004. */
  secrets?: Record<string, string>;
  /** policy/evaluate answer (default deny). */
  policy?: (params: JsonObject) => PolicyDecision | Promise<PolicyDecision>;
  /** agent/wait result override. */
  agentWait?: (params: JsonObject) => { timed_out: boolean; agents: AgentRecord[] };
  /** Directory path artifacts are read from (default $OCTET_EXTENSION_SCRATCH). */
  scratchDir?: string;
  /** Consulted first for every reverse request; return undefined to fall through to the defaults. */
  respond?: (method: string, params: JsonObject) => HostReply | undefined | Promise<HostReply | undefined>;
}

function fail(code: number, message: string, data?: JsonValue): HostReply {
  return { error: data === undefined ? { code, message } : { code, message, data } };
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

export class ReverseServices {
  readonly artifacts = new Map<string, Buffer>();
  readonly kv = new Map<string, { value: JsonValue; version: string }>();
  readonly agents: AgentRecord[] = [];
  catalog = new Set<string>();
  revision = 0;

  constructor(
    private readonly script: HostScript,
    private readonly extensionName: string,
  ) {}

  /**
   * Every request the extension may send, answered by descriptor (the generated Requests.*):
   * the fake host is this table, and a method the schema adds without a row here is caught by
   * the coverage test (testing.test.ts).
   */
  readonly table: ReadonlyMap<string, Route> = routes([
    route(Requests.CONFIRMATION_REQUEST, async (p) => ({ confirmed: (await this.script.confirm?.(p as unknown as JsonObject)) ?? false })),
    route(Requests.INPUT_REQUEST, async (p) => ({ value: (await this.script.input?.(p as unknown as JsonObject)) ?? null })),
    route(Requests.SECRET_GET, (p) => {
      const value = this.script.secrets?.[p.name];
      return value === undefined ? fail(ErrorCode.SECRET_UNAVAILABLE, "secret is unavailable") : { value };
    }),
    route(Requests.POLICY_EVALUATE, async (p) => (await this.script.policy?.(p as unknown as JsonObject)) ?? { decision: "deny", reason: "scripted host denies by default" }),
    route(Requests.ARTIFACT_PUBLISH, (p) => this.publish(p as unknown as JsonObject)),
    route(Requests.TOOLS_REGISTER, (p) => {
      for (const t of p.tools) this.catalog.add(t.name);
      return { revision: ++this.revision, tools: [...this.catalog] };
    }),
    route(Requests.TOOLS_REPLACE, (p) => {
      this.catalog = new Set(p.tools.map((t) => t.name));
      return { revision: ++this.revision, tools: [...this.catalog] };
    }),
    route(Requests.TOOLS_UNREGISTER, (p) => {
      for (const n of p.names) this.catalog.delete(n);
      return { revision: ++this.revision, tools: [...this.catalog] };
    }),
    route(Requests.AGENT_SPAWN, (p) => this.spawn(p as unknown as JsonObject)),
    route(Requests.AGENT_MESSAGE, (p) => this.steer(p.target)),
    route(Requests.AGENT_FOLLOW_UP, (p) => this.steer(p.target)),
    route(Requests.AGENT_MODELS, () => ({ models: [{ provider: "scripted", model: "echo", label: "Scripted echo" }] })),
    route(Requests.AGENT_LIST, () => ({ agents: this.agents })),
    route(Requests.AGENT_WAIT, (p) => {
      if (this.script.agentWait) return this.script.agentWait(p as unknown as JsonObject);
      for (const a of this.agents) {
        a.state = "settled";
        a.output = `scripted output for ${a.task_name}`;
      }
      return { timed_out: false, agents: this.agents };
    }),
    route(Requests.AGENT_INTERRUPT, (p) => ({ interrupted: this.agents.some((a) => a.agent_id === p.target) })),
    route(Requests.KV_GET, (p) => this.kvCall(Requests.KV_GET.method, p as unknown as JsonObject)),
    route(Requests.KV_LIST, (p) => this.kvCall(Requests.KV_LIST.method, p as unknown as JsonObject)),
    route(Requests.KV_COMMIT, (p) => this.kvCall(Requests.KV_COMMIT.method, p as unknown as JsonObject)),
  ]);

  async handle(method: string, p: JsonObject): Promise<HostReply> {
    const custom = await this.script.respond?.(method, p);
    if (custom !== undefined) return custom;
    const r = this.table.get(method);
    if (r === undefined) return fail(ErrorCode.METHOD_NOT_FOUND, `method not found: ${method}`, { method });
    // The real host validates params against the schema before serving: so does the fake.
    const fault = checkWire(r.type.params, p);
    if (fault !== undefined) return fail(ErrorCode.INVALID_PARAMS, `invalid ${method} params: ${fault.message}`, fault.path === undefined ? undefined : { path: fault.path });
    const out = await r.handle(p);
    return isReply(out) ? out : { result: out as JsonValue };
  }

  private steer(target: string): HostReply | { accepted: boolean } {
    return this.agents.some((a) => a.agent_id === target) ? { accepted: true } : fail(ErrorCode.SERVICE_UNAVAILABLE, `unknown agent ${target}`);
  }

  private publish(p: JsonObject): HostReply {
    let bytes: Buffer;
    if (typeof p["data"] === "string") {
      bytes = Buffer.from(p["data"], "base64");
    } else {
      const dir = this.script.scratchDir ?? process.env["OCTET_EXTENSION_SCRATCH"];
      if (dir === undefined) return fail(ErrorCode.SERVICE_UNAVAILABLE, "no scratch directory");
      try {
        bytes = readFileSync(join(dir, String(p["path"])));
      } catch (err) {
        return fail(ErrorCode.INVALID_PARAMS, `artifact path unreadable: ${(err as Error).message}`, { path: "/path" });
      }
      if (bytes.length !== p["size"]) return fail(ErrorCode.INVALID_PARAMS, `artifact size ${bytes.length} does not match the declared ${String(p["size"])}`, { path: "/size" });
      if (sha256(bytes) !== p["sha256"]) return fail(ErrorCode.INVALID_PARAMS, "artifact sha256 does not match its bytes", { path: "/sha256" });
    }
    const id = `artifact-${this.artifacts.size + 1}`;
    this.artifacts.set(id, bytes);
    return { result: { artifact_id: id, size: bytes.length, sha256: sha256(bytes) } };
  }

  private spawn(p: JsonObject): HostReply {
    const existing = this.agents.find((a) => a.idempotency_key === p["idempotency_key"]);
    if (existing) return { result: { agent_id: existing.agent_id, session: existing.session, state: existing.state, created: false } };
    const n = this.agents.length + 1;
    const record = {
      agent_id: `agent-${n}`,
      session: `agent-session:${n}`,
      task_name: String(p["task_name"]),
      idempotency_key: String(p["idempotency_key"]),
      state: "running",
      policy: p["policy"],
      created_at_ms: 0,
      turns: 0,
      usage: { input_tokens: 0, output_tokens: 0, cost_microdollars: 0 },
      timed_out: false,
    } as unknown as AgentRecord;
    this.agents.push(record);
    return { result: { agent_id: record.agent_id, session: record.session, state: "running", created: true } };
  }

  private ownNamespace(ns: unknown): boolean {
    return typeof ns === "string" && (ns === this.extensionName || ns.startsWith(this.extensionName + "."));
  }

  /** Store a value as a KV commit would (data an earlier release wrote, or another generation's write). */
  seedKV(namespace: string, key: string, value: JsonValue): void {
    this.kv.set(`${namespace}\u0000${key}`, { value, version: sha256(canonicalJson(value)) });
  }

  private kvCall(method: string, p: JsonObject): HostReply {
    if (method === Requests.KV_GET.method) {
      if (!this.ownNamespace(p["namespace"])) return fail(ErrorCode.INVALID_PARAMS, `foreign namespace ${String(p["namespace"])}`, { path: "/namespace" });
      const e = this.kv.get(`${String(p["namespace"])}\u0000${String(p["key"])}`);
      return { result: e ? { found: true, value: e.value, version: e.version } : { found: false } };
    }
    if (method === Requests.KV_LIST.method) {
      const prefix = `${String(p["namespace"])}\u0000${String(p["prefix"] ?? "")}`;
      const entries = [...this.kv.entries()]
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, e]) => ({ key: k.split("\u0000")[1]!, value: e.value, version: e.version }));
      return { result: { entries } };
    }
    const pre = (p["preconditions"] as JsonObject[] | undefined) ?? [];
    const writes = (p["writes"] as JsonObject[] | undefined) ?? [];
    for (const x of [...pre, ...writes]) {
      if (!this.ownNamespace(x["namespace"])) return fail(ErrorCode.INVALID_PARAMS, `foreign namespace ${String(x["namespace"])}`, { path: "/namespace" });
    }
    for (const c of pre) {
      const e = this.kv.get(`${String(c["namespace"])}\u0000${String(c["key"])}`);
      const actual = e?.version ?? null;
      const expected = c["absent"] === true ? null : (c["version"] as string);
      if (actual !== expected) {
        return fail(ErrorCode.KV_CONFLICT, `precondition failed for ${String(c["namespace"])}/${String(c["key"])}`, {
          namespace: c["namespace"] ?? null, key: c["key"] ?? null, expected, actual,
        });
      }
    }
    const versions: JsonValue[] = [];
    for (const w of writes) {
      const k = `${String(w["namespace"])}\u0000${String(w["key"])}`;
      if (w["op"] === "put") {
        const version = sha256(canonicalJson(w["value"] as JsonValue));
        this.kv.set(k, { value: w["value"] as JsonValue, version });
        versions.push({ namespace: w["namespace"]!, key: w["key"]!, version });
      } else {
        this.kv.delete(k);
        versions.push({ namespace: w["namespace"]!, key: w["key"]!, version: null });
      }
    }
    return { result: { versions } };
  }
}

export function isReply(v: unknown): v is HostReply {
  return isObject(v) && ("result" in v || "error" in v);
}
