// fetch-many: progress events per item, and cancellation honoured between and during items.
import { Extension } from "octet-extension-sdk";

const ext = new Extension({ apiVersion: "0.4" });

ext.tool(
  {
    name: "fetch_many",
    description: "Fetch several records",
    parameters: {
      type: "object",
      properties: {
        items: { type: "array", items: { type: "string" }, maxItems: 100 },
        delay_ms: { type: "integer", minimum: 0, maximum: 10000 },
      },
      required: ["items"],
    },
  },
  async (args, ctx) => {
    const fetched: string[] = [];
    for (const [index, item] of args.items.entries()) {
      ctx.throwIfCancelled();
      // Stands in for real I/O: ctx.sleep rejects with CancelledError the moment the host cancels.
      await ctx.sleep(args.delay_ms ?? 10);
      fetched.push(`record:${item}`);
      ctx.progress({ message: `Fetched ${index + 1} of ${args.items.length}`, current: index + 1, total: args.items.length, unit: "records" });
    }
    return fetched.join("\n") || "nothing to fetch";
  },
);

await ext.run();
