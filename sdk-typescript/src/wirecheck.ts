// Host frames checked against the generated schema validators (schema/ is the contract).
import { validate } from "./generated/validate.js";
import { METHODS } from "./generated/methods.js";
import { wireCtx } from "./wireparse.js";

export interface WireFault {
  message: string;
  /** JSON Pointer of the first fault, when the validator named one. */
  path?: string;
}

/** "$.a.b[2]: reason" -> "/a/b/2". */
function pointerOf(fault: string): string | undefined {
  const m = /^\$(\S*?):/.exec(fault);
  if (m === null || m[1] === "") return undefined;
  return m[1]!.replace(/\[(\d+)\]/g, ".$1").replace(/\./g, "/");
}

/**
 * Check `value` against schema type `type`; the first fault, or undefined when valid. Values
 * decoded by parseFrame keep their lexical facts (an integer written `1.0` is not one).
 */
export function checkWire(type: string, value: unknown): WireFault | undefined {
  const faults = validate(type, value, wireCtx);
  if (faults.length === 0) return undefined;
  const first = faults[0]!;
  const path = pointerOf(first);
  return path === undefined ? { message: first } : { message: first, path };
}

/** The params type of a host→extension request for `api`, if the registry knows it. */
export function requestParamsType(method: string, api: string): string | undefined {
  const info = METHODS[method];
  if (info === undefined || info.kind !== "request" || info.direction === "extension_to_host") return undefined;
  return info.params[api];
}

/** The result type of an extension→host request for `api`, if the registry knows it. */
export function reverseResultType(method: string, api: string): string | undefined {
  const info = METHODS[method];
  if (info === undefined || info.kind !== "request" || info.direction === "host_to_extension") return undefined;
  return info.result[api];
}
