// Shared test plumbing: the conformance fixture over either transport, small manifests.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Extension, JsonObject } from "../src/index.js";
import { ScriptedHost, type HostOptions } from "../src/testing/index.js";

const here = dirname(fileURLToPath(import.meta.url));
/** sdk-typescript/ (tests run from dist/test/). */
export const PKG = resolve(here, "../..");
export const FIXTURE_DIR = resolve(PKG, "../examples/typescript/conformance-fixture");

/** The fixture manifest as the host sends it (extension.toml parsed to JSON). */
export const FIXTURE_MANIFEST: JsonObject = {
  name: "conformance-fixture",
  version: "0.1.0",
  api_version: "0.4",
  description: "Implements the conformance checks' fixture tools",
  entrypoint: { command: "./launch" },
  capabilities: { secrets: ["fixture.token"] },
  contributes: {
    tools: [
      "echo", "fail_with", "slow", "progress_n", "print_stdout", "crash", "callback_n", "big_result", "publish", "register_dynamic",
      "unregister_dynamic", "ask", "secret", "present", "spawn_child", "kv_commit", "kv_get", "arm_stuck_shutdown", "typed",
    ],
    commands: ["fixture_cmd"],
    hooks: ["before_prompt", "after_tool_call"],
    ui: ["status"],
    context: true,
    tool_renderers: ["echo"],
    notifications: true,
    confirmations: true,
    presentation: true,
  },
};

export type Mode = "loopback" | "process";
export const MODES: Mode[] = ["loopback", "process"];

export const scratch = mkdtempSync(join(tmpdir(), "octet-ts-scratch-"));

/** Start the conformance fixture over `mode` (not yet initialized). */
export async function startFixture(mode: Mode, options: Partial<HostOptions> & { stdout?: "fifo" | "socket" } = {}): Promise<ScriptedHost> {
  const opts: HostOptions = { manifest: FIXTURE_MANIFEST, ...options, script: { scratchDir: scratch, ...options.script } };
  if (mode === "process") {
    return ScriptedHost.spawn(join(FIXTURE_DIR, "launch"), [], {
      ...opts,
      cwd: tmpdir(),
      env: { OCTET_EXTENSION_DIR: FIXTURE_DIR, OCTET_EXTENSION_SCRATCH: scratch, OCTET_EXTENSION_API_VERSION: "0.4" },
    });
  }
  process.env["OCTET_EXTENSION_SCRATCH"] = scratch;
  const mod = (await import(pathToFileURL(join(FIXTURE_DIR, "dist/fixture.js")).href)) as { buildFixture(): Extension };
  return ScriptedHost.inProcess(mod.buildFixture(), opts);
}

/** A minimal manifest for hand-built test extensions. */
export function manifest(contributes: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return { name: "t", version: "1.0.0", api_version: "0.4", entrypoint: { command: "x" }, contributes, ...extra };
}
