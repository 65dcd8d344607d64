// The page's model, fed by the live entries in seq order. Every view renders from it, so
// a reloaded page that replays the kept entries from seq 0 shows what the last one did.

import type { Entry, JSONValue, Question, State } from "./api.js";
import { Method } from "../../sdk-typescript/src/generated/methods.js";

export interface FrameRow {
  seq: number;
  at: number;
  ext: string;
  gen: number;
  direction: "host->ext" | "ext->host";
  method?: string;
  id?: JSONValue;
  kind: "request" | "notification" | "response" | "error";
  size: number;
  json?: JSONValue;
  text?: string;
  durationMs?: number; // responses: since their request
  answeredIn?: number; // requests: the response's duration
}

export interface ProgressRow {
  key: string;
  ext: string;
  parent: string;
  message: string;
  current?: number;
  total?: number;
  unit?: string;
  sequence: number;
  done: boolean;
  decoration?: string;
  output: string;
}

export interface NoticeRow {
  seq: number;
  at: number;
  ext: string;
  kind: string;
  text: string;
  level?: string;
}

export interface PresentationRow {
  key: string;
  ext: string;
  owner?: JSONValue;
  revision: number;
  snapshot: any;
  delivered: number; // snapshots the host accepted and emitted for this key
  sent: number; // presentation/update frames the extension wrote (all keys of ext)
  revisions: number[]; // the last revisions delivered, to show coalescing
  at: number;
}

export interface BrokerRow {
  seq: number;
  at: number;
  ext: string;
  method: string;
  params?: JSONValue;
  answer?: JSONValue;
  error?: JSONValue;
}

export interface CatalogRow {
  seq: number;
  at: number;
  revision: number;
  tools: { extension: string; name: string; catalog_revision: number }[];
}

// The page keeps at most this many frames and notices (the oldest go first), so a long
// session does not grow the tab without bound.
const keepRows = 50000;

function capped<T>(rows: T[]): void {
  if (rows.length > keepRows) rows.splice(0, rows.length - keepRows);
}

export class Store {
  state: State | null = null;
  lastSeq = 0;
  frames: FrameRow[] = [];
  progress = new Map<string, ProgressRow>();
  notices: NoticeRow[] = [];
  presentation = new Map<string, PresentationRow>();
  presentationSent = new Map<string, number>();
  broker: BrokerRow[] = [];
  catalog: CatalogRow[] = [];
  questions = new Map<string, Question>();
  answered: { id: string; outcome: string; question?: Question }[] = [];
  onStateChange: () => void = () => {};

  private open = new Map<string, FrameRow>();
  private brokerOpen = new Map<string, BrokerRow>();

  setState(s: State): void {
    this.state = s;
    for (const q of s.questions) this.questions.set(q.id, q);
  }

  // add applies one entry; entries already seen (a resumed stream) are ignored.
  add(e: Entry): boolean {
    if (e.seq <= this.lastSeq) return false;
    this.lastSeq = e.seq;
    const ext = e.extension ?? "";
    switch (e.type) {
      case "frame":
        this.frame(e, ext);
        break;
      case "event":
        this.event(e, ext);
        break;
      case "state":
        this.notices.push({ seq: e.seq, at: e.at_ms, ext, kind: "state", text: `${e.data.state} (generation ${e.generation ?? 0})${e.data.message ? ": " + e.data.message : ""}` });
        this.onStateChange();
        break;
      case "catalog":
        this.catalog.push({ seq: e.seq, at: e.at_ms, revision: e.data.revision, tools: e.data.tools ?? [] });
        this.onStateChange();
        break;
      case "question":
        this.questions.set(e.data.id, e.data as Question);
        break;
      case "answered":
        this.answered.push({ id: e.data.id, outcome: e.data.outcome, question: this.questions.get(e.data.id) });
        this.questions.delete(e.data.id);
        break;
      case "call":
        if (e.data.done) this.onStateChange();
        break;
    }
    capped(this.notices);
    return true;
  }

  private frame(e: Entry, ext: string): void {
    const d = e.data;
    const gen = e.generation ?? 0;
    const hasID = d.id !== undefined;
    const kind: FrameRow["kind"] = d.method ? (hasID ? "request" : "notification") : d.error ? "error" : "response";
    const row: FrameRow = { seq: e.seq, at: e.at_ms, ext, gen, direction: d.direction, method: d.method, id: d.id, kind, size: d.size, json: d.json, text: d.text };
    const idKey = JSON.stringify(d.id);
    if (kind === "request") {
      this.open.set(`${ext}/${gen}/${d.direction}/${idKey}`, row);
      if (d.direction === "ext->host" && /^(policy|secrets?)\//.test(d.method)) {
        const b: BrokerRow = { seq: e.seq, at: e.at_ms, ext, method: d.method, params: (d.json as any)?.params };
        this.broker.push(b);
        this.brokerOpen.set(`${ext}/${gen}/${idKey}`, b);
      }
    } else if (kind === "notification" && d.direction === "ext->host" && d.method === Method.PRESENTATION_UPDATE) {
      this.presentationSent.set(ext, (this.presentationSent.get(ext) ?? 0) + 1);
    } else if (kind === "response" || kind === "error") {
      // Ids are per sender: a response going one way answers a request that went the other.
      const reqDir = d.direction === "host->ext" ? "ext->host" : "host->ext";
      const key = `${ext}/${gen}/${reqDir}/${idKey}`;
      const req = this.open.get(key);
      if (req) {
        this.open.delete(key);
        row.method = req.method;
        row.durationMs = e.at_ms - req.at;
        req.answeredIn = row.durationMs;
      }
      if (reqDir === "host->ext") {
        const p = this.progress.get(`${ext}/${gen}/${idKey}`);
        if (p) p.done = true;
      } else {
        const b = this.brokerOpen.get(`${ext}/${gen}/${idKey}`);
        if (b) {
          this.brokerOpen.delete(`${ext}/${gen}/${idKey}`);
          b.answer = (d.json as any)?.result;
          b.error = (d.json as any)?.error;
        }
      }
    }
    this.frames.push(row);
    capped(this.frames);
  }

  private event(e: Entry, ext: string): void {
    const kind: string = e.data.kind;
    const p = e.data.payload;
    const gen = e.generation ?? 0;
    switch (kind) {
      case "progress": {
        const parent = JSON.stringify(p.parent_request_id);
        const key = `${ext}/${gen}/${parent}`;
        const row = this.progress.get(key) ?? { key, ext, parent, message: "", sequence: 0, done: false, output: "" };
        const ev = p.event ?? {};
        row.sequence = p.sequence;
        if (ev.type === "status") {
          if (ev.message !== undefined) row.message = ev.message;
          row.current = ev.current;
          row.total = ev.total;
          row.unit = ev.unit;
        } else if (ev.type === "decoration") {
          row.decoration = ev.label + (ev.detail ? ": " + ev.detail : "");
        } else if (ev.type === "output") {
          row.output = (row.output + (ev.encoding === "base64" ? `[${ev.data.length} base64 chars]` : ev.data)).slice(-4000);
        }
        this.progress.set(key, row);
        break;
      }
      case "presentation": {
        const key = `${ext}/${JSON.stringify(p.owner ?? null)}`;
        const old = this.presentation.get(key);
        const revisions = [...(old?.revisions ?? []), p.revision].slice(-12);
        this.presentation.set(key, { key, ext, owner: p.owner, revision: p.revision, snapshot: p.snapshot, delivered: (old?.delivered ?? 0) + 1,
          sent: this.presentationSent.get(ext) ?? 0, revisions, at: e.at_ms });
        break;
      }
      case "notification":
        this.notices.push({ seq: e.seq, at: e.at_ms, ext, kind, level: p.level, text: (p.title ? p.title + ": " : "") + p.message });
        break;
      case "confirmation":
        this.notices.push({ seq: e.seq, at: e.at_ms, ext, kind, text: `confirm “${p.message}” → ${p.confirmed ? "confirmed" : "denied"} (${p.reason})` });
        break;
      case "input":
        this.notices.push({ seq: e.seq, at: e.at_ms, ext, kind, text: `input “${p.prompt}”${p.secret ? " (secret)" : ""} → ${p.answered ? "answered" : "cancelled"}` });
        break;
      case "diagnostic":
        this.notices.push({ seq: e.seq, at: e.at_ms, ext, kind, level: "warning", text: `${p.method}: ${p.message}` });
        break;
      default:
        this.notices.push({ seq: e.seq, at: e.at_ms, ext, kind, text: JSON.stringify(p) });
    }
  }
}
