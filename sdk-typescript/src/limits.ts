// The wire limits this SDK enforces (docs/design/wire.md §8). Until the schema engineer's
// generated module lands these live here, privately, in one place; afterwards this file only
// re-exports ./generated/index.js so no number is written twice.
export const MAX_MESSAGE_BYTES = 1048576;
export const MAX_IN_FLIGHT = 64;
export const MAX_PENDING_REQUESTS = 64;
export const SHUTDOWN_DRAIN_MS = 5000;
export const MAX_TOOLS_PER_REQUEST = 256;
export const MAX_CATALOG_TOOLS = 256;
export const RETAINED_CATALOGS = 8;
export const MAX_ID_BYTES = 256;
export const PRESENTATION_MAX_BYTES = 262144;
export const PRESENTATION_MAX_ACTIVITIES = 128;
export const PRESENTATION_MAX_NODES = 256;
export const PRESENTATION_MAX_ACTIONS = 64;
export const PRESENTATION_MAX_DETAIL_BYTES = 65536;
export const ARTIFACT_INLINE_MAX_BYTES = 262144;
export const ARTIFACT_MAX_BYTES = 20971520;
export const RESULT_MAX_CONTENT_PARTS = 256;
export const RESULT_MAX_STRUCTURED_BYTES = 262144;
export const RESULT_MAX_METADATA_BYTES = 65536;
export const INPUT_PROMPT_MAX_BYTES = 16384;
export const INPUT_VALUE_MAX_BYTES = 262144;
export const SECRET_NAME_MAX_BYTES = 64;
export const SECRET_VALUE_MAX_BYTES = 65536;
export const AGENT_MESSAGE_MAX_BYTES = 131072;
export const AGENT_MAX_ACTIVE = 8;
export const AGENT_MAX_DEPTH = 1;
export const AGENT_WAIT_MIN_MS = 1;
export const AGENT_WAIT_MAX_MS = 60000;
export const AGENT_WAIT_DEFAULT_MS = 30000;
export const AGENT_NAME_MAX_CHARS = 48;
export const AGENT_MAX_TOKENS_MIN = 1000;
export const AGENT_MAX_TOKENS_MAX = 64000;
export const KV_KEY_MAX_BYTES = 512;
export const KV_VALUE_MAX_BYTES = 262144;
export const KV_MAX_BATCH = 256;
export const KV_LIST_MAX = 1000;

export const ErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  REQUEST_CANCELLED: -32800,
  OVERLOADED: -32001,
  SERVICE_UNAVAILABLE: -32002,
  SHUTTING_DOWN: -32003,
  SECRET_UNAVAILABLE: -32004,
  KV_CONFLICT: -32005,
  UNSUPPORTED_API_VERSION: -32006,
} as const;
