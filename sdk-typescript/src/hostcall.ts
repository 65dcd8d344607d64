// Host calls: one request this extension sends the host, and its answer checked against the
// method's generated result validator before any SDK code trusts its shape. The services
// (services.ts) are built on this; the connection (connection.ts) correlates the answer.
import type { Connection } from "./connection.js";
import { ProtocolError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json.js";
import type { ApiVersion } from "./types.js";
import { checkWire, reverseResultType } from "./wirecheck.js";

/** Send `method` to the host over `conn` and return its schema-checked result. */
export async function hostCall(conn: Connection, api: ApiVersion, method: string, params: JsonObject, signal?: AbortSignal): Promise<JsonValue> {
  const result = await conn.request(method, params, signal);
  const type = reverseResultType(method, api);
  const fault = type === undefined ? undefined : checkWire(type, result);
  if (fault !== undefined) throw new ProtocolError(`${method} result does not match the schema: ${fault.message}`);
  return result;
}
