// The TypeScript side of the cross-language differential fuzz (codegen/cmd/octet-fuzzdiff).
// Reads cases as JSON lines on stdin and writes one verdict line per case on stdout: "decode"
// runs the generated strict scanner (parseStrict), "frame" the wire frame decoder
// (parseFrame), "validate" checkJSON of the named type. Bytes are decoded as the SDK's reader
// does: fatal UTF-8, a byte order mark kept so the decoder refuses it. An accepted document
// is reported by the hash of its canonical form, written exactly as the Go driver's canon.go (sdk-go/internal/fuzzdiffdriver).
import { createHash } from "node:crypto";
import { createInterface } from "node:readline";

import { checkJSON, parseStrict } from "../src/generated/index.js";
import { parseFrame } from "../src/wireparse.js";

function canon(v: unknown, out: string[]): void {
  if (v === null) out.push("n");
  else if (v === true) out.push("t");
  else if (v === false) out.push("f");
  else if (typeof v === "number") {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, v === 0 ? 0 : v);
    out.push("d" + view.getBigUint64(0).toString(16));
  } else if (typeof v === "string") out.push("s" + Buffer.from(v, "utf8").toString("hex"));
  else if (Array.isArray(v)) {
    out.push("[");
    v.forEach((x, i) => {
      if (i > 0) out.push(",");
      canon(x, out);
    });
    out.push("]");
  } else if (typeof v === "object") {
    const obj = v as Record<string, unknown>;
    const keys = Object.keys(obj)
      .map((k) => [Buffer.from(k, "utf8").toString("hex"), k] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    out.push("{");
    keys.forEach(([hex, k], i) => {
      if (i > 0) out.push(",");
      out.push(hex + ":");
      canon(obj[k], out);
    });
    out.push("}");
  } else out.push("?");
}

function canonical(v: unknown): string {
  const parts: string[] = [];
  canon(v, parts);
  return createHash("sha256").update(parts.join("")).digest("hex").slice(0, 16);
}

interface Case {
  id: number;
  kind: string;
  type?: string;
  data: string;
}

function judge(c: Case): [string, string] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Buffer.from(c.data, "base64"));
  } catch (err) {
    return ["refused", "invalid UTF-8: " + String(err)];
  }
  if (c.kind === "validate") {
    const errs = checkJSON(c.type ?? "", text);
    if (errs.length === 0) return ["valid", ""];
    // checkJSON reports a decoding failure as its only error; tell it apart as Go does.
    try {
      parseStrict(text);
    } catch (err) {
      return ["refused", String(err)];
    }
    return ["invalid", errs.join("; ")];
  }
  let value: unknown;
  try {
    value = c.kind === "frame" ? parseFrame(text) : parseStrict(text);
  } catch (err) {
    return ["refused", String(err)];
  }
  return ["ok:" + canonical(value), ""];
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
const out: string[] = [];
for await (const line of lines) {
  const c = JSON.parse(line) as Case;
  let verdict: string;
  let detail: string;
  try {
    [verdict, detail] = judge(c);
  } catch (err) {
    [verdict, detail] = ["crash", String(err)]; // a crash is a verdict of its own
  }
  out.push(JSON.stringify({ id: c.id, verdict, detail }));
}
process.stdout.write(out.join("\n") + (out.length > 0 ? "\n" : ""));
