// The smallest extension: one tool with typed arguments.
import { Extension } from "octet-extension-sdk";

const ext = new Extension({ apiVersion: "0.4" });

ext.tool(
  {
    name: "hello_world",
    description: "Greet someone",
    parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  },
  (args) => `Hello, ${args.name}!`,
);

await ext.run();
