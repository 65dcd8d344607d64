// requestInput with options: what is sent, and the chosen value handed back.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Extension, type JsonObject } from "../src/index.js";
import { ScriptedHost } from "../src/testing/index.js";
import { manifest } from "./helpers.js";

describe("requestInput options", () => {
  it("sends options in order and allow_free_text only when asked; returns the chosen value", async () => {
    const ext = new Extension();
    const options = [{ value: "main", label: "Main" }, { value: "dev", label: "Dev", description: "unstable" }];
    let mode = 0;
    ext.tool({ name: "run", description: "" }, async () => {
      const value =
        mode === 0 ? (await ext.ui.requestInput("Branch?", { options })).value
        : mode === 1 ? (await ext.ui.requestInput("Branch?", { options, allowFreeText: true })).value
        : (await ext.ui.requestInput("Branch?")).value;
      return { content: "ok", metadata: { value } };
    });
    const answers = ["dev", "feature", "x"];
    const host = ScriptedHost.inProcess(ext, { manifest: manifest({ tools: ["run"] }), script: { input: () => answers.shift() ?? null } });
    assert.equal((await host.initialize()).error, undefined);
    const got: unknown[] = [];
    for (mode = 0; mode < 3; mode++) {
      const r = await host.callTool("run");
      got.push(((r.result as JsonObject)["metadata"] as JsonObject)["value"]);
    }
    assert.deepEqual(got, ["dev", "feature", "x"]);
    const sent = host.sent("input/request").map((f) => {
      const p = { ...(f["params"] as JsonObject) };
      delete p["parent_request_id"];
      return p;
    });
    assert.deepEqual(sent, [
      { prompt: "Branch?", secret: false, options },
      { prompt: "Branch?", secret: false, options, allow_free_text: true },
      { prompt: "Branch?", secret: false },
    ]);
  });
});
