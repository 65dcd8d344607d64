// octet-extension-sdk: write octet extensions for Node 20. See docs/typescript.md.
export { Extension } from "./extension.js";
export type {
  ArgsOf, CommandHandler, ContextHandler, DynamicTool, ExtensionOptions, HookHandler, LifecycleHandler, RendererHandler, ServeResult,
  ShutdownHandler, StatusHandler, ToolHandler, ToolSpec,
} from "./extension.js";
export { RequestContext, currentContext } from "./context.js";
export type { ProgressEvent, StatusProgress } from "./context.js";
export { audioContent, imageContent, persistenceMetadata, postMutationRescan, textContent, toolResult } from "./content.js";
export type { ToolResultOptions } from "./content.js";
export {
  CancelledError, FeatureUnavailableError, OctetError, ProtocolError, RemoteError, ToolError, TransportError, ValidationError,
} from "./errors.js";
export type { WireError } from "./errors.js";
export type { ArtifactSource, NamespaceOption } from "./services.js";
export { AgentsService, Artifacts, KV, KVTransaction, Policy, Presentation, Progress, SecretsService, UIService, canonicalJson } from "./services.js";
export { Catalog } from "./publish.js";
export { Session } from "./session.js";
export { Requests } from "./generated/requests.js";
export type { CallOptions, NotificationType, Outgoing, RequestType } from "./generated/requests.js";
export type * from "./generated/services.js";
export { KV_VERSION_KEY, MigrationError, MigrationTx, type MigrationKind, type MigrationStep } from "./migrate.js";
export { Logger } from "./log.js";
export { SettingsRefused } from "./settings.js";
export type { ConfigureHandler, ConfigureInfo } from "./settings.js";
export type { LogFields, LogLevel } from "./log.js";
export { checkSchema, compileSchema, SchemaError } from "./schema.js";
export { typed } from "./typed.js";
export type { ArrayOptions, NumberOptions, ObjectOf, Optional, StringOptions, Typed, TypedToolSpec, TypeOf } from "./typed.js";
export type { CompiledSchema, CompileOptions, ExactProbe, Fault, Infer, JsonSchema, JsonTypeName, SchemaFault } from "./schema.js";
export type { Id, JsonObject, JsonPrimitive, JsonValue } from "./json.js";
export type { Transport, InboundSink } from "./transport.js";
export type * from "./types.js"; // type-only: no module to load at run time
export * as limits from "./limits.js";
export { ErrorCode } from "./limits.js";
export { FeatureName } from "./generated/dispatch.js";
export { Method } from "./generated/methods.js";
