// Local bound checks run before a reverse call is sent, so a mistake fails fast with a message
// naming the field and the limit instead of a round trip to the host.
import { isAbsolute, posix } from "node:path";
import { ValidationError } from "./errors.js";
import { codePoints, encodedBytes, utf8Bytes } from "./json.js";
import * as L from "./limits.js";
import type { AgentPolicy, AgentTool, Snapshot } from "./types.js";

const SHA256 = /^[0-9a-f]{64}$/;
const NAME48 = /^[a-z0-9_-]{1,48}$/;
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const ID64 = /^[A-Za-z0-9_.:-]{1,64}$/;
const AGENT_TOOLS: ReadonlySet<string> = new Set<AgentTool>(["read", "search", "edit", "write", "bash"]);

export function isSha256(text: unknown): text is string {
  return typeof text === "string" && SHA256.test(text);
}

export function checkInt(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new ValidationError(`${field} must be an integer, got ${JSON.stringify(value)}`, `/${field}`);
  if (value < min || value > max) throw new ValidationError(`${field} must be within ${min}..${max}, got ${value}`, `/${field}`);
  return value;
}

export function checkBytes(text: unknown, field: string, min: number, max: number): string {
  if (typeof text !== "string") throw new ValidationError(`${field} must be a string`, `/${field}`);
  const n = utf8Bytes(text);
  if (n < min || n > max) throw new ValidationError(`${field} is ${n} bytes; ${min}..${max} UTF-8 bytes are allowed`, `/${field}`);
  return text;
}

/** A scratch-relative artifact path: no absolute paths, no '..', no NUL, no backslashes. */
export function checkScratchPath(path: string): string {
  if (typeof path !== "string" || path === "") throw new ValidationError("artifact path must be a non-empty string", "/path");
  if (path.includes("\0")) throw new ValidationError("artifact path contains a NUL byte", "/path");
  if (isAbsolute(path) || path.startsWith("/") || /^[A-Za-z]:/.test(path)) {
    throw new ValidationError(`artifact path ${JSON.stringify(path)} is absolute; give a path relative to OCTET_EXTENSION_SCRATCH`, "/path");
  }
  if (path.includes("\\")) throw new ValidationError(`artifact path ${JSON.stringify(path)} contains a backslash`, "/path");
  if (path.split("/").includes("..")) {
    throw new ValidationError(`artifact path ${JSON.stringify(path)} leaves the scratch directory ('..')`, "/path");
  }
  const normal = posix.normalize(path);
  if (normal === "." || normal.endsWith("/")) throw new ValidationError(`artifact path ${JSON.stringify(path)} names a directory`, "/path");
  return normal;
}

export function checkSecretName(name: string): void {
  if (typeof name !== "string" || !SECRET_NAME.test(name) || utf8Bytes(name) > L.SECRET_NAME_MAX_BYTES) {
    throw new ValidationError(`secret name ${JSON.stringify(name)} must match ${SECRET_NAME.source} (≤ ${L.SECRET_NAME_MAX_BYTES} ASCII bytes)`, "/name");
  }
}

export function checkPrompt(prompt: string): void {
  checkBytes(prompt, "prompt", 1, L.INPUT_PROMPT_MAX_BYTES);
  if (prompt.trim() === "") throw new ValidationError("prompt must contain a non-whitespace character", "/prompt");
}

export function checkName48(value: unknown, field: string): string {
  if (typeof value !== "string" || !NAME48.test(value)) {
    throw new ValidationError(`${field} ${JSON.stringify(value)} must be 1..${L.AGENT_NAME_MAX_CHARS} of a-z 0-9 _ -`, `/${field}`);
  }
  return value;
}

export function checkAgentMessage(message: unknown, field = "message"): string {
  return checkBytes(message, field, 1, L.AGENT_MESSAGE_MAX_BYTES);
}

export function checkAgentPolicy(policy: AgentPolicy): void {
  const tools = policy.tools;
  if (!Array.isArray(tools) || tools.length < 1 || tools.length > 5) throw new ValidationError("policy.tools must list 1..5 tools", "/policy/tools");
  const seen = new Set<string>();
  for (const t of tools) {
    if (!AGENT_TOOLS.has(t)) throw new ValidationError(`policy.tools has unknown tool ${JSON.stringify(t)}; use read, search, edit, write or bash`, "/policy/tools");
    if (seen.has(t)) throw new ValidationError(`policy.tools lists ${t} twice`, "/policy/tools");
    seen.add(t);
  }
  if (policy.max_depth !== L.AGENT_MAX_DEPTH) throw new ValidationError(`policy.max_depth must be ${L.AGENT_MAX_DEPTH}, got ${String(policy.max_depth)}`, "/policy/max_depth");
  checkInt(policy.max_concurrent_children, "policy.max_concurrent_children", 1, L.AGENT_MAX_ACTIVE);
  checkInt(policy.max_turns, "policy.max_turns", 1);
  if (policy.max_tokens !== null) checkInt(policy.max_tokens, "policy.max_tokens", L.AGENT_MAX_TOKENS_MIN, L.AGENT_MAX_TOKENS_MAX);
  checkInt(policy.max_cost_microdollars, "policy.max_cost_microdollars", 0);
  checkInt(policy.max_output_bytes, "policy.max_output_bytes", 1);
  checkInt(policy.timeout_ms, "policy.timeout_ms", 1);
}

function checkId64(id: unknown, path: string): void {
  if (typeof id !== "string" || !ID64.test(id)) throw new ValidationError(`${path} id ${JSON.stringify(id)} must match ${ID64.source}`, path);
}

function checkChars(text: unknown, max: number, path: string): void {
  if (text === undefined) return;
  if (typeof text !== "string") throw new ValidationError(`${path} must be a string`, path);
  if (codePoints(text) > max) throw new ValidationError(`${path} is longer than ${max} chars`, path);
}

/** The SDK-side presentation checks (the host validates the full schema again). */
export function checkSnapshot(snapshot: Snapshot, lastRevision: number | undefined): void {
  checkInt(snapshot.revision, "revision", 0);
  if (lastRevision !== undefined && snapshot.revision <= lastRevision) {
    throw new ValidationError(`snapshot revision ${snapshot.revision} is not above the last published revision ${lastRevision}`, "/revision");
  }
  if (!Array.isArray(snapshot.activities)) throw new ValidationError("snapshot.activities must be an array", "/activities");
  if (!Array.isArray(snapshot.actions)) throw new ValidationError("snapshot.actions must be an array", "/actions");
  if (snapshot.activities.length > L.PRESENTATION_MAX_ACTIVITIES) {
    throw new ValidationError(`snapshot has ${snapshot.activities.length} activities; at most ${L.PRESENTATION_MAX_ACTIVITIES}`, "/activities");
  }
  if (snapshot.actions.length > L.PRESENTATION_MAX_ACTIONS) {
    throw new ValidationError(`snapshot has ${snapshot.actions.length} actions; at most ${L.PRESENTATION_MAX_ACTIONS}`, "/actions");
  }
  snapshot.activities.forEach((a, i) => {
    checkId64(a.id, `/activities/${i}/id`);
    checkChars(a.label, 128, `/activities/${i}/label`);
    checkChars(a.detail, 1024, `/activities/${i}/detail`);
  });
  snapshot.actions.forEach((a, i) => {
    checkId64(a.id, `/actions/${i}/id`);
    checkChars(a.label, 64, `/actions/${i}/label`);
  });
  if (snapshot.status !== undefined) {
    checkChars(snapshot.status.label, 128, "/status/label");
    checkChars(snapshot.status.detail, 1024, "/status/detail");
  }
  const c = snapshot.collection;
  if (c !== undefined) {
    if (c.nodes.length > L.PRESENTATION_MAX_NODES) throw new ValidationError(`snapshot has ${c.nodes.length} nodes; at most ${L.PRESENTATION_MAX_NODES}`, "/collection/nodes");
    c.nodes.forEach((n, i) => checkId64(n.id, `/collection/nodes/${i}/id`));
    if (c.detail !== undefined && utf8Bytes(c.detail.text) > L.PRESENTATION_MAX_DETAIL_BYTES) {
      throw new ValidationError(`collection detail text exceeds ${L.PRESENTATION_MAX_DETAIL_BYTES} bytes`, "/collection/detail/text");
    }
  }
  const size = encodedBytes(snapshot);
  if (size > L.PRESENTATION_MAX_BYTES) throw new ValidationError(`snapshot of ${size} bytes exceeds ${L.PRESENTATION_MAX_BYTES}`, "/");
}

/** KV namespaces are the extension's own name or `name.` + suffix. */
export function checkNamespace(namespace: unknown, own: string, path: string): void {
  if (typeof namespace !== "string" || (namespace !== own && !(namespace.startsWith(own + ".") && namespace.length > own.length + 1))) {
    throw new ValidationError(`kv namespace ${JSON.stringify(namespace)} is not '${own}' or '${own}.<suffix>'`, path);
  }
}

export function checkKVKey(key: unknown, path: string): void {
  if (typeof key !== "string") throw new ValidationError("kv key must be a string", path);
  const n = utf8Bytes(key);
  if (n < 1 || n > L.KV_KEY_MAX_BYTES) throw new ValidationError(`kv key is ${n} bytes; 1..${L.KV_KEY_MAX_BYTES} are allowed`, path);
}

export function checkKVValue(value: unknown, path: string): void {
  if (value === undefined) throw new ValidationError("kv value is missing", path);
  const n = encodedBytes(value);
  if (n > L.KV_VALUE_MAX_BYTES) throw new ValidationError(`kv value of ${n} bytes exceeds ${L.KV_VALUE_MAX_BYTES}`, path);
}
