#!/usr/bin/env node
// The benchmark's floor for Node: the least code that speaks the octet wire
// (initialize, tool/call echo, callback_n, crash, shutdown). Each answer is one
// write; there is no validation, no queue and no pool, so an SDK measured against it
// shows what its machinery costs.
let name = "";
let seq = 0;
const waiting = new Map(); // our request id -> resolve

function write(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

function callHost(method, params) {
  const id = `ts:${++seq}`;
  write({ jsonrpc: "2.0", id, method, params });
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
}

function initialize(params) {
  const manifest = params.manifest;
  name = manifest.name;
  const tools = (manifest.contributes?.tools ?? []).map((t) => ({ name: t, description: t, parameters: { type: "object" } }));
  const result = { api_version: params.api_version, name: manifest.name, version: manifest.version, tools, commands: [] };
  const proto = params.protocol;
  if (proto) {
    const features = [...proto.required_features];
    if ((proto.optional_features ?? []).includes("kv")) features.push("kv");
    result.protocol = { version: proto.version, features, limits: { max_concurrent_requests: 64 } };
  }
  return result;
}

async function toolCall(params) {
  const args = params.arguments ?? {};
  switch (params.name) {
    case "echo":
      return { content: [{ type: "text", text: "echo" }], structured_content: { value: args.value } };
    case "callback_n":
      for (let i = 0; i < args.n; i++) await callHost("kv.get", { namespace: name, key: "callback" });
      return { content: [{ type: "text", text: "done" }], structured_content: { calls: args.n } };
    case "crash":
      process.exit(args.code ?? 3);
  }
  throw new Error(`floor has no tool ${JSON.stringify(params.name)}`);
}

async function serve(frame) {
  const reply = { jsonrpc: "2.0", id: frame.id };
  try {
    if (frame.method === "initialize") reply.result = initialize(frame.params);
    else if (frame.method === "tool/call") reply.result = await toolCall(frame.params);
    else if (frame.method === "shutdown") reply.result = {};
    else reply.error = { code: -32601, message: "method not found", data: { method: frame.method } };
  } catch (err) {
    reply.error = { code: -32603, message: String(err?.message ?? err) };
  }
  write(reply);
  if (frame.method === "shutdown") process.exit(0);
}

function onLine(line) {
  const frame = JSON.parse(line);
  if (frame.method === undefined) {
    const w = waiting.get(frame.id);
    if (w) {
      waiting.delete(frame.id);
      if (frame.error) w.reject(new Error(`callback failed: ${JSON.stringify(frame.error)}`));
      else w.resolve(frame.result);
    }
    return;
  }
  if (frame.id === undefined) return; // notifications need no answer here
  serve(frame);
}

// Split stdin on newlines by hand: node:readline adds an event and a string copy
// per line, which is more than the least a Node child can do.
let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (line) onLine(line);
  }
});
