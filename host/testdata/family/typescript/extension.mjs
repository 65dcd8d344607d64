// Process-family fixture: a same-group and a setsid grandchild, then one tool.
import { spawn } from "node:child_process";
import { renameSync, writeFileSync } from "node:fs";
import { Extension } from "../../../../sdk-typescript/dist/src/index.js";

// Each ignores SIGTERM (the shell's SIG_IGN survives exec), so only SIGKILL ends it.
const sleep = ["-c", "trap '' TERM; exec sleep 1000"];
const kids = [
  spawn("sh", sleep, { stdio: "ignore" }),
  spawn("sh", sleep, { stdio: "ignore", detached: true }), // detached = setsid
];
for (const k of kids) k.unref();
writeFileSync(process.argv[2] + ".tmp", kids.map((k) => `${k.pid}\n`).join(""));
renameSync(process.argv[2] + ".tmp", process.argv[2]);

const ext = new Extension({ apiVersion: "0.4" });
ext.tool({ name: "hello_typescript", description: "Answer", parameters: { type: "object" } }, () => "hello");
await ext.run();
