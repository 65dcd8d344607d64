// The kvmigrate extension in TypeScript's compiled form (migration_test.go writes the SDK's
// path in): the same tools and migration as the Go and Python copies beside it.
const { Extension } = await import("@SDK@");

const ext = new Extension({ apiVersion: "0.4" });
// From version 1 the note is wrapped as {"migrated": <old>}; a second run would nest.
ext.migration(1, async (tx) => {
  const note = await tx.get("note");
  if (note !== undefined) tx.put("note", { migrated: note });
});
ext.tool(
  { name: "remember", description: "store a note", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  async (args) => {
    await ext.kv.commit([{ op: "put", namespace: "kvmigrate", key: "note", value: args.text }]);
    return "stored";
  },
);
ext.tool({ name: "recall", description: "read the note back" }, async () => {
  const got = await ext.kv.get("note", { namespace: "kvmigrate" });
  let value = got.found ? got.value : null;
  let depth = 0;
  while (value !== null && typeof value === "object" && !Array.isArray(value)) {
    value = value.migrated;
    depth++;
  }
  return `note: ${value}, migrated ${depth}`;
});
await ext.run();
