// Shared test plumbing: the conformance fixture over either transport, small manifests.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Extension, JsonObject } from "../src/index.js";
import { ScriptedHost, type HostOptions } from "../src/testing/index.js";
import { readManifest } from "./toml.js";

const here = dirname(fileURLToPath(import.meta.url));
/** sdk-typescript/ (tests run from dist/test/). */
export const PKG = resolve(here, "../..");
export const FIXTURE_DIR = resolve(PKG, "../examples/typescript/conformance-fixture");

/** The fixture manifest as the host sends it: read from its extension.toml so the two never drift. */
export const FIXTURE_MANIFEST: JsonObject = readManifest(join(FIXTURE_DIR, "extension.toml"));

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
