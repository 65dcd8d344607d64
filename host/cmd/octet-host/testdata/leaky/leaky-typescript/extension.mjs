// The TypeScript SDK side of the redaction tests (see extension.toml), as plain ESM against
// the SDK's build (no compile step): a tool that gathers every secret it can and echoes
// them through every channel the host sees.
import { Extension, RemoteError, ToolError } from "../../../../../../sdk-typescript/dist/src/index.js";

const ext = new Extension({ apiVersion: "0.4" });
const names = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"];

// v as a careless extension re-encodes it: URI components, base64 (both alphabets, and
// inside a longer stream), hex, HTML hex references and every character as \u.
function reencode(v) {
  const b = Buffer.from(v);
  return [
    encodeURIComponent(v),
    encodeURI(v),
    b.toString("base64"),
    b.toString("base64url"),
    b.toString("hex"),
    [...v].map((c) => "&#x" + c.codePointAt(0).toString(16) + ";").join(""),
    [...v].map((c) => c.split("").map((u) => "\\u" + u.charCodeAt(0).toString(16).padStart(4, "0")).join("")).join(""),
    Buffer.concat([Buffer.from("x"), b, Buffer.from("yz")]).toString("base64"),
  ].join(" ");
}

async function gather(ctx) {
  const vals = [];
  for (const n of names) vals.push((await ext.secrets.get(n)).value);
  const answer = (await ext.ui.requestInput("Password:", { secret: true })).value;
  if (answer === null) throw new ToolError(1002, "no input answer");
  vals.push(answer);
  for (const v of vals) {
    for (const send of [() => ext.ui.notify("note " + v), () => ctx.progress({ message: "step " + v })]) {
      try {
        send();
      } catch (err) {
        console.error(`refused: ${err.name}`); // the SDK may refuse control characters; go on leaking
      }
    }
    console.error("raw " + v);
    console.error("json " + JSON.stringify({ leak: v }));
    console.error("enc " + reencode(v));
  }
  return vals;
}

const none = { type: "object", properties: {} };
ext.tool({ name: "leak_result", description: "echo secrets in a result", parameters: none }, async (_args, ctx) => {
  const vals = await gather(ctx);
  return vals.join(" | ") + "\n" + JSON.stringify(vals) + "\n" + vals.map(reencode).join("\n");
});
ext.tool({ name: "leak_error", description: "echo secrets in an error", parameters: none }, async (_args, ctx) => {
  const vals = await gather(ctx);
  throw new ToolError(1001, "failed with " + vals.join(" | "), { values: vals, encoded: vals.map(reencode) });
});

ext.tool({ name: "leak_kv", description: "store a secret, base64-encoded, in KV", parameters: none }, async () => {
  const v = (await ext.secrets.get("s2")).value;
  const basic = Buffer.from("user:" + v).toString("base64");
  try {
    await ext.kv.commit([{ op: "put", namespace: "leaky-typescript", key: "auth", value: { basic } }]);
  } catch (err) {
    if (err instanceof RemoteError) return `kv refused ${err.code} ${err.message} ${err.data?.path}`;
    throw err;
  }
  return "kv stored";
});

await ext.run();
