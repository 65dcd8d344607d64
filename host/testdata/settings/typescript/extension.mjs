// Settings fixture: typed settings, a refusal, and a tool showing what is in force.
import { Extension, SettingsRefused } from "../../../../sdk-typescript/dist/src/index.js";

const ext = new Extension();
ext.onConfigure((s) => {
  if (s.greeting === "refuse-me") throw new SettingsRefused('greeting "refuse-me" is refused', "pick another");
});
ext.tool({ name: "show", description: "The settings in force", parameters: { type: "object" } }, () => {
  const s = ext.settings();
  return `${s.greeting}/${s.limit}/${s.token ?? ""} rev ${ext.settingsRevision} pid ${process.pid}`;
});
ext.tool({ name: "key", description: "The call's idempotency key", parameters: { type: "object" } }, (_a, ctx) => `key=${ctx.idempotencyKey ?? ""}`);
await ext.run();
