// sandbox_probe (docs/design/fixture.md): tries the read, write, connect, spawn or allocation
// its arguments name and reports what happened, within fixed bounds. The sandbox.* checks
// find the evidence themselves; the report only explains it.
import type { ChildProcess } from "node:child_process";
import { closeSync, openSync, readSync, writeFileSync } from "node:fs";
import { textContent, toolResult, type Extension, type JsonObject } from "octet-extension-sdk";

const children: ChildProcess[] = [];
let held: Buffer | undefined;

/** Connects (TCP) or sends one datagram (UDP) to host:port within 2 s, sending "probe\n". */
async function reach(op: "connect" | "udp", target: string): Promise<void> {
  const cut = target.lastIndexOf(":");
  const host = target.slice(0, cut).replace(/^\[|\]$/g, "");
  const port = Number(target.slice(cut + 1));
  if (op === "udp") {
    const dgram = await import("node:dgram");
    const sock = dgram.createSocket(host.includes(":") ? "udp6" : "udp4");
    try {
      await new Promise<void>((resolve, reject) => {
        sock.on("error", reject); // a refused socket reports here, not to send's callback
        sock.send("probe\n", port, host, (err) => (err ? reject(err) : resolve()));
      });
    } finally {
      sock.close();
    }
    return;
  }
  const net = await import("node:net");
  await new Promise<void>((resolve, reject) => {
    const sock = net.connect({ host, port, timeout: 2000 }, () => sock.end("probe\n", () => resolve()));
    sock.on("timeout", () => sock.destroy(new Error("connect timed out")));
    sock.on("error", reject);
  });
}

/** Starts up to n sleeping children, stopping at the first refusal; returns how many started. */
async function spawnSleepers(n: number): Promise<number> {
  const { spawn } = await import("node:child_process");
  let count = 0;
  for (; count < Math.min(n, 1024); count++) {
    const child = spawn("sleep", ["60"], { stdio: "ignore" });
    const started = await new Promise<Error | undefined>((resolve) => {
      child.once("spawn", () => resolve(undefined));
      child.once("error", resolve);
    });
    if (started !== undefined) throw Object.assign(started, { count });
    children.push(child);
  }
  return count;
}

async function reap(): Promise<number> {
  const all = children.splice(0);
  await Promise.all(all.map((c) => new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once("exit", () => resolve());
    c.kill("SIGKILL");
  })));
  return all.length;
}

async function orphan(mark: string): Promise<void> {
  const { execFile } = await import("node:child_process");
  await new Promise<void>((resolve, reject) =>
    execFile("sh", ["-c", `setsid sh -c 'sleep 120; :' "$0" </dev/null >/dev/null 2>&1 &`, mark], (err) => (err ? reject(err) : resolve())),
  );
}

export function registerProbe(ext: Extension): void {
  ext.tool(
    {
      name: "sandbox_probe",
      description: "Try one read, write, connect, spawn or allocation and report it",
      parameters: {
        type: "object",
        properties: {
          op: { enum: ["read", "write", "connect", "udp", "spawn", "reap", "allocate", "release", "orphan"] },
          target: { type: "string", maxLength: 4096 },
          n: { type: "integer", minimum: 0, maximum: 4096 },
        },
        required: ["op"],
      },
    },
    async (args) => {
      const target = args.target ?? "";
      const n = args.n ?? 0;
      const res: JsonObject = { ok: true };
      try {
        switch (args.op) {
          case "read": {
            const fd = openSync(target, "r");
            try {
              const buf = Buffer.alloc(64);
              res["data"] = buf.subarray(0, readSync(fd, buf, 0, 64, null)).toString("utf8");
            } finally {
              closeSync(fd);
            }
            break;
          }
          case "write":
            writeFileSync(target, "octet-probe", { mode: 0o600 });
            break;
          case "connect":
          case "udp":
            await reach(args.op, target);
            break;
          case "spawn":
            res["count"] = await spawnSleepers(n);
            break;
          case "reap":
            res["count"] = await reap();
            break;
          case "allocate":
            held = undefined;
            held = Buffer.alloc(Math.min(n, 4096) * 1024 * 1024);
            break;
          case "release":
            held = undefined;
            break;
          case "orphan":
            await orphan(target);
            break;
        }
      } catch (e) {
        res["ok"] = false;
        res["detail"] = (e instanceof Error ? e.message : String(e)).slice(0, 200);
        const count = (e as { count?: unknown }).count;
        if (typeof count === "number") res["count"] = count;
      }
      return toolResult(textContent("probed"), { structuredContent: res });
    },
  );
}
