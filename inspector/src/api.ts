// The inspector's API client. The one-time token comes from the page's own URL and goes
// on every request (header on fetches, query on the event stream, which cannot set
// headers); the server refuses anything without it.

export const token = new URLSearchParams(location.search).get("token") ?? "";

export type JSONValue = null | boolean | number | string | JSONValue[] | { [k: string]: JSONValue };
export type JSONObject = { [k: string]: JSONValue };

export interface ToolDef {
  name: string;
  description: string;
  parameters: JSONObject;
  output_schema?: JSONObject;
  catalog_revision: number;
}

export interface ExtensionState {
  name: string;
  state: string;
  generation: number;
  pid?: number;
  api_version?: string;
  features?: string[];
  pending: number;
  failures: number;
  restarts: number;
  last_error?: string;
  tools?: string[];
  commands?: string[];
  hooks?: string[];
  dir: string;
  stderr_tail: string[];
  tool_definitions: ToolDef[];
  /** How the running generation is confined: "enforced: <policy>" or "off (operator opt-out)". */
  sandbox?: string;
  /** What the manifest's [capabilities] ask for (docs/sandbox.md#consent). */
  permissions?: string;
}

export interface Question {
  id: string;
  kind: "confirm" | "input";
  extension: string;
  generation: number;
  message?: string;
  title?: string;
  destructive?: boolean;
  prompt?: string;
  secret?: boolean;
  /** An input request's choices; the answer is one of their values unless allow_free_text. */
  options?: Array<{ value: string; label: string; description?: string }>;
  allow_free_text?: boolean;
}

export interface State {
  session_id?: string;
  started_at_ms: number;
  replay: boolean;
  questions: Question[];
  seq: number;
  extensions: ExtensionState[];
}

export interface Entry {
  seq: number;
  at_ms: number;
  type: "frame" | "event" | "state" | "catalog" | "question" | "answered" | "call";
  extension?: string;
  generation?: number;
  data: any;
}

export interface CallError {
  message: string;
  code?: number;
  data?: JSONValue;
}

export interface CallAnswer {
  call: number;
  duration_ms: number;
  result?: JSONObject;
  error?: CallError;
}

async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: { "X-Octet-Token": token } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${path}: ${res.status} ${text.trim()}`);
  }
  if (!res.ok) throw new Error(parsed?.error?.message ?? `${path}: ${res.status}`);
  return parsed as T;
}

export const api = {
  state: () => send<State>("GET", "/api/state"),
  call: (extension: string, tool: string, args: JSONValue) => send<CallAnswer>("POST", "/api/call", { extension, tool, arguments: args }),
  command: (extension: string, command: string, args: string[]) =>
    send<{ result?: JSONValue; error?: CallError }>("POST", "/api/command", { extension, command, arguments: args }),
  answer: (id: string, confirmed: boolean, value: string | null) => send<{ ok: boolean }>("POST", "/api/answer", { id, confirmed, value }),
  sessions: () => send<{ sessions: { session_id: string; extension: string; started_at: string; frames: number }[] }>("GET", "/api/sessions"),
  session: (id: string) => send<{ session_id: string; entries: RecordedEntry[] }>("GET", "/api/session?id=" + encodeURIComponent(id)),
  replay: (id: string) => send<{ diff: JSONValue }>("POST", "/api/replay", { session_id: id }),
};

export interface RecordedEntry {
  seq: number;
  at: string;
  direction: string;
  kind: string;
  id?: JSONValue;
  method?: string;
  duration_ms?: number;
  error?: { code: number; message: string };
  frame: string;
}

// events opens the live stream after seq; EventSource reconnects by itself, resuming
// with Last-Event-ID, so nothing is lost or shown twice.
export function events(after: number, onEntry: (e: Entry) => void, onStatus: (live: boolean) => void): EventSource {
  const es = new EventSource(`/api/events?token=${encodeURIComponent(token)}&since=${after}`);
  es.onmessage = (m) => onEntry(JSON.parse(m.data) as Entry);
  es.onopen = () => onStatus(true);
  es.onerror = () => onStatus(false);
  return es;
}
