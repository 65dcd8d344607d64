// capture: artifacts (inline bytes or a scratch file published by path) and structured results.
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Extension, imageContent, textContent, toolResult } from "octet-extension-sdk";
import { solidPng } from "./png.js";

const ext = new Extension({ apiVersion: "0.4" });

ext.tool(
  {
    name: "capture",
    description: "Capture a (generated) screenshot",
    parameters: {
      type: "object",
      properties: { size: { type: "integer", minimum: 1, maximum: 512 }, via: { enum: ["inline", "path"] } },
      required: ["size"],
    },
    outputSchema: {
      type: "object",
      properties: { bytes: { type: "integer" }, sha256: { type: "string" } },
      required: ["bytes", "sha256"],
    },
  },
  async (args) => {
    const png = solidPng(args.size, args.size, [40, 120, 200]);
    let ref;
    if (args.via === "path") {
      // Large outputs go through the per-generation scratch directory, never inline.
      const scratch = process.env["OCTET_EXTENSION_SCRATCH"];
      if (scratch === undefined) throw new Error("OCTET_EXTENSION_SCRATCH is not set");
      // One file per call: calls run concurrently and the host reads the file when it verifies.
      const relative = `captures/${randomUUID()}.png`;
      mkdirSync(join(scratch, "captures"), { recursive: true });
      writeFileSync(join(scratch, relative), png);
      const sha256 = createHash("sha256").update(png).digest("hex");
      ref = await ext.artifacts.publish({ mimeType: "image/png", path: relative, size: png.length, sha256 });
    } else {
      ref = await ext.artifacts.publish({ mimeType: "image/png", name: "capture.png", data: png });
    }
    return toolResult([textContent("Captured the page."), imageContent(ref.artifact_id, "image/png", { alt: "A blue square" })], {
      structuredContent: { bytes: ref.size, sha256: ref.sha256 },
      metadata: { cache: "miss" },
    });
  },
);

await ext.run();
