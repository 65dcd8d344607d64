// The SDK's service surface as data: every service object an Extension carries (a member
// holding the session), every operation on it (its methods, inherited ones included) and the
// operation's positional arguments (the parameters before the trailing options object), all
// read from the running code and named in snake_case. The API-parity test compares it with
// schema/methods.json's sdk rows plus schema/sdk-surface.json; run as a script it prints the
// surface as JSON for the cross-language comparison:
//
//   node sdk-typescript/dist/src/apisurface.js
import { pathToFileURL } from "node:url";
import { Extension } from "./extension.js";
import { Session } from "./session.js";

/** service -> operation -> positional argument names (snake_case). */
export type Surface = Record<string, Record<string, string[]>>;

/** camelCase -> snake_case (requestInput -> request_input, taskName -> task_name). */
export function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The parameter names of a function as compiled (defaults and rest markers dropped). */
function parameterNames(fn: Function): string[] {
  const src = fn.toString();
  const open = src.indexOf("(");
  let depth = 0;
  let close = open;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") depth--;
    if (depth === 0) {
      close = i;
      break;
    }
  }
  const names: string[] = [];
  let part = "";
  depth = 0;
  for (const c of src.slice(open + 1, close) + ",") {
    if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") depth--;
    if (c === "," && depth === 0) {
      const name = part.split("=")[0]!.replace("...", "").trim();
      if (name !== "") names.push(name);
      part = "";
    } else part += c;
  }
  return names;
}

/** The public methods of an object, own class first, up to (not including) Object. */
function methodsOf(obj: object): Map<string, Function> {
  const out = new Map<string, Function>();
  for (let proto = Object.getPrototypeOf(obj) as object | null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      if (key === "constructor" || out.has(key) || typeof d.value !== "function") continue;
      out.set(key, d.value as Function);
    }
  }
  return out;
}

/** Whether a member is a service: an object built on the session. */
function isService(value: unknown): value is object {
  if (typeof value !== "object" || value === null || value instanceof Session) return false;
  // Data members only: reading an accessor could run code that needs a live session.
  return Object.getOwnPropertyNames(value).some((k) => Object.getOwnPropertyDescriptor(value, k)!.value instanceof Session);
}

/** The surface of an Extension's service objects. */
export function apiSurface(ext: Extension = new Extension()): Surface {
  const surface: Surface = {};
  for (const [member, service] of Object.entries(ext)) {
    if (!isService(service)) continue;
    const ops: Record<string, string[]> = {};
    for (const [name, fn] of methodsOf(service)) {
      const params = parameterNames(fn);
      if (params[params.length - 1] === "options") params.pop();
      ops[snake(name)] = params.map(snake);
    }
    surface[snake(member)] = ops;
  }
  return surface;
}

/** The differences between two surfaces, one line each; empty when they are the same. */
export function compareSurfaces(actual: Surface, expected: Surface): string[] {
  const diffs: string[] = [];
  for (const service of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
    const a = actual[service] ?? {};
    const e = expected[service] ?? {};
    if (actual[service] === undefined) diffs.push(`service ${service} is missing`);
    else if (expected[service] === undefined) diffs.push(`service ${service} is not in the schema`);
    for (const op of new Set([...Object.keys(a), ...Object.keys(e)])) {
      if (a[op] === undefined) diffs.push(`${service}.${op} is missing`);
      else if (e[op] === undefined) diffs.push(`${service}.${op} is not in the schema`);
      else if (a[op].join(",") !== e[op].join(",")) diffs.push(`${service}.${op} takes (${a[op].join(", ")}); the schema says (${e[op].join(", ")})`);
    }
  }
  return diffs;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(apiSurface(), null, 2)}\n`);
}
