// Content helpers and the normalisation of whatever a tool handler returns into the wire result
// of the negotiated API version, with the result limits checked before anything is sent.
import { ValidationError } from "./errors.js";
import { outputSchemaFault } from "./faults.js";
import { encodedBytes, isObject, withinBytes, type JsonObject, type JsonValue } from "./json.js";
import { RESULT_MAX_CONTENT_PARTS, RESULT_MAX_METADATA_BYTES, RESULT_MAX_STRUCTURED_BYTES } from "./limits.js";
import { checkSchema, type JsonSchema } from "./schema.js";
import type { AudioPart, ContentPart, HookResult, ImagePart, TextPart, ToolResult01, ToolResult02 } from "./types.js";

export function textContent(text: string): TextPart {
  return { type: "text", text };
}

export function imageContent(artifactId: string, mimeType: ImagePart["mime_type"], options: { alt?: string } = {}): ImagePart {
  const part: ImagePart = { type: "image", artifact_id: artifactId, mime_type: mimeType };
  if (options.alt !== undefined) part.alt = options.alt;
  return part;
}

export function audioContent(artifactId: string, mimeType: AudioPart["mime_type"], options: { transcript?: string } = {}): AudioPart {
  const part: AudioPart = { type: "audio", artifact_id: artifactId, mime_type: mimeType };
  if (options.transcript !== undefined) part.transcript = options.transcript;
  return part;
}

export interface ToolResultOptions {
  isError?: boolean;
  structuredContent?: JsonObject;
  metadata?: JsonObject;
}

/** Build a full API 0.2/0.4 tool result from content parts (strings become text parts). */
export function toolResult(parts: ContentPart | string | (ContentPart | string)[], options: ToolResultOptions = {}): ToolResult02 {
  const list = Array.isArray(parts) ? parts : [parts];
  const result: ToolResult02 = { content: list.map((p) => (typeof p === "string" ? textContent(p) : p)) };
  if (options.isError !== undefined) result.is_error = options.isError;
  if (options.structuredContent !== undefined) result.structured_content = options.structuredContent;
  if (options.metadata !== undefined) result.metadata = options.metadata;
  return result;
}

/** Hook result field for before_persistence. */
export function persistenceMetadata(value: JsonObject, isPublic = false): Pick<HookResult, "persistence_metadata"> {
  return { persistence_metadata: { value, public: isPublic } };
}

/** Hook result field for post_mutation. */
export function postMutationRescan(resourceIds: string[]): Pick<HookResult, "post_mutation_rescan"> {
  return { post_mutation_rescan: { resource_ids: [...resourceIds] } };
}

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const AUDIO_TYPES = new Set(["audio/wav", "audio/mpeg", "audio/ogg", "audio/flac"]);

function checkPart(part: unknown, i: number): void {
  const path = `/content/${i}`;
  if (!isObject(part)) throw new ValidationError("content part must be an object", path);
  switch (part["type"]) {
    case "text":
      if (typeof part["text"] !== "string") throw new ValidationError("text part needs a string 'text'", path);
      return;
    case "image":
    case "audio": {
      const kinds = part["type"] === "image" ? IMAGE_TYPES : AUDIO_TYPES;
      if (typeof part["artifact_id"] !== "string" || part["artifact_id"] === "") throw new ValidationError(`${part["type"]} part needs an artifact_id`, path);
      if (!kinds.has(part["mime_type"] as string)) throw new ValidationError(`${part["type"]} part has unsupported mime_type ${JSON.stringify(part["mime_type"])}`, path);
      return;
    }
    default:
      throw new ValidationError(`unknown content part type ${JSON.stringify(part["type"])}`, path);
  }
}

/** Turn a handler's return value into the wire result for API 0.2/0.4. */
export function normalizeResult02(value: unknown, outputSchema: JsonSchema | undefined, tool: string): ToolResult02 {
  let result: ToolResult02;
  if (typeof value === "string") {
    result = { content: [{ type: "text", text: value }] };
  } else if (isObject(value)) {
    const content = value["content"];
    if (typeof content === "string") {
      result = { ...(value as unknown as ToolResult02), content: [{ type: "text", text: content }] };
    } else if (Array.isArray(content)) {
      result = value as unknown as ToolResult02;
    } else {
      throw new ValidationError(`tool '${tool}' returned a result without content`, "/content");
    }
  } else {
    throw new ValidationError(`tool '${tool}' returned ${value === undefined ? "nothing" : typeof value}; return a string or a tool result`);
  }
  const parts = result.content;
  if (parts.length === 0 || parts.length > RESULT_MAX_CONTENT_PARTS) {
    throw new ValidationError(`tool '${tool}' returned ${parts.length} content parts; 1..${RESULT_MAX_CONTENT_PARTS} are allowed`, "/content");
  }
  let hasText = false;
  for (let i = 0; i < parts.length; i++) {
    checkPart(parts[i], i);
    if (parts[i]!.type === "text") hasText = true;
  }
  if (!hasText) throw new ValidationError(`tool '${tool}' returned no text part; at least one is required`, "/content");
  for (const key in result) {
    if (key !== "content" && key !== "is_error" && key !== "structured_content" && key !== "metadata") {
      throw new ValidationError(`tool '${tool}' returned unknown result field '${key}'`, `/${key}`);
    }
  }
  if (result.is_error !== undefined && typeof result.is_error !== "boolean") throw new ValidationError("is_error must be a boolean", "/is_error");
  const sc = result.structured_content;
  if (outputSchema !== undefined) {
    if (sc === undefined) throw new ValidationError(`tool '${tool}' declares output_schema but returned no structured_content`, "/structured_content");
    const fault = checkSchema(outputSchema, sc);
    if (fault) {
      const keyword = (fault as { keyword?: string }).keyword ?? ""; // reported by the complete validator
      throw outputSchemaFault(tool, fault.path === "/" ? "" : fault.path, keyword, fault.reason);
    }
  }
  if (sc !== undefined) {
    if (!isObject(sc)) throw new ValidationError("structured_content must be an object", "/structured_content");
    const n = withinBytes(sc, RESULT_MAX_STRUCTURED_BYTES) ? 0 : encodedBytes(sc);
    if (n > RESULT_MAX_STRUCTURED_BYTES) throw new ValidationError(`structured_content of ${n} bytes exceeds ${RESULT_MAX_STRUCTURED_BYTES}`, "/structured_content");
  }
  if (result.metadata !== undefined) {
    if (!isObject(result.metadata)) throw new ValidationError("metadata must be an object", "/metadata");
    const n = withinBytes(result.metadata, RESULT_MAX_METADATA_BYTES) ? 0 : encodedBytes(result.metadata);
    if (n > RESULT_MAX_METADATA_BYTES) throw new ValidationError(`metadata of ${n} bytes exceeds ${RESULT_MAX_METADATA_BYTES}`, "/metadata");
  }
  return result;
}

/** Turn a handler's return value into the frozen API 0.1 result (content is one string). */
export function normalizeResult01(value: unknown, tool: string): ToolResult01 {
  if (typeof value === "string") return { content: value };
  if (isObject(value)) {
    const content = value["content"];
    let text: string;
    if (typeof content === "string") text = content;
    else if (Array.isArray(content)) {
      // A 0.2-style result on the 0.1 wire keeps only its text parts.
      text = content
        .filter((p: JsonValue): p is JsonObject => isObject(p) && p["type"] === "text")
        .map((p) => String(p["text"]))
        .join("\n");
    } else throw new ValidationError(`tool '${tool}' returned a result without content`, "/content");
    const out: ToolResult01 = { content: text };
    if (typeof value["is_error"] === "boolean") out.is_error = value["is_error"];
    if (isObject(value["metadata"])) out.metadata = value["metadata"];
    return out;
  }
  throw new ValidationError(`tool '${tool}' returned ${value === undefined ? "nothing" : typeof value}; return a string or a tool result`);
}
