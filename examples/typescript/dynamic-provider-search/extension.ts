// dynamic-provider-search: live tool catalogs. Selecting a provider registers (or replaces)
// `provider_search`; selecting "none" removes it. Every accepted change is a new catalog revision, and a
// call pinned to an older revision still reaches the handler the model saw.
import { Extension, toolResult } from "octet-extension-sdk";

const ext = new Extension({ apiVersion: "0.4" });

ext.tool(
  {
    name: "select_provider",
    description: "Choose the search provider (or none)",
    parameters: { type: "object", properties: { provider: { enum: ["alpha", "beta", "none"] } }, required: ["provider"] },
    outputSchema: { type: "object", properties: { revision: { type: "integer" }, tools: { type: "array" } }, required: ["revision"] },
  },
  async (args) => {
    const update =
      args.provider === "none"
        ? await ext.catalog.unregister(["provider_search"])
        : await ext.catalog.register([
            {
              name: "provider_search",
              description: `Search with the ${args.provider} provider`,
              parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
              handler: (search) => `${args.provider} results for ${String(search["query"])}`,
            },
          ]);
    return toolResult(`catalog revision ${update.revision}`, { structuredContent: { revision: update.revision, tools: update.tools } });
  },
);

await ext.run();
