// The tool faults whose error object the registry fixes: schema/errors.schema.json holds
// the message templates (generated into ErrorMessage) and schema/error-vectors/ the exact
// objects every SDK answers, so the same fault reads the same in Go, Python and TypeScript.

import { OctetError, RemoteError, ValidationError, type WireError } from "./errors.js";
import { ErrorCode, ErrorMessage } from "./generated/errors.js";

/** Fill a registry message template: each {key} is replaced by its value. */
export function formatMessage(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** An error the SDK itself answers with a registry code, sent verbatim (as a RemoteError is). */
export class WireFault extends RemoteError {
  override name = "WireFault";
}

/** -32602: tool/call named a tool the catalog (or the named revision) does not hold. */
export function unknownTool(name: string): WireError {
  const message = formatMessage(ErrorMessage.UNKNOWN_TOOL, { tool: name });
  return { code: ErrorCode.INVALID_PARAMS, message, data: { path: "/name", reason: message } };
}

/**
 * What a tool handler's failure answers: an SDK error (ToolError, ValidationError,
 * CancelledError, RemoteError) keeps its own answer; anything else thrown is -32603
 * keeping the exception's name and message (`TypeError: x is undefined`).
 */
export function toolFailure(tool: string, err: unknown): unknown {
  if (err instanceof OctetError) return err;
  const exception = err instanceof Error ? err.name : "non-Error";
  const text = err instanceof Error ? err.message : String(err);
  const fault = new WireFault(ErrorCode.INTERNAL_ERROR, formatMessage(ErrorMessage.HANDLER_EXCEPTION, { tool, exception, message: text }), { tool, exception });
  if (err instanceof Error && err.stack !== undefined) fault.stack = err.stack; // the log keeps the handler's stack
  return fault;
}

/**
 * -32603: structured_content breaks the tool's own output_schema (pointer is within
 * structured_content, "" its root): the extension's fault, not the caller's.
 */
export function outputSchemaFault(tool: string, pointer: string, keyword: string, reason: string): WireFault {
  const at = `/structured_content${pointer}`;
  return new WireFault(ErrorCode.INTERNAL_ERROR, formatMessage(ErrorMessage.OUTPUT_SCHEMA_FAULT, { tool, pointer: at, reason }), { tool, pointer: at, keyword });
}

/**
 * A tool result the wire cannot carry (no text part, an unknown member, bad content parts)
 * is -32603, as in Go and Python: the handler broke the result contract, the caller did
 * nothing wrong. Other errors pass through.
 */
export function resultFault(err: unknown): unknown {
  if (err instanceof ValidationError) return new WireFault(ErrorCode.INTERNAL_ERROR, err.message);
  return err;
}
