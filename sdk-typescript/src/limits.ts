// The wire limits and error codes, generated from schema/ (never written twice). The SDK
// imports them from here so the rest of the generated module stays an implementation detail.
export * from "./generated/limits.js";
export { ErrorCode } from "./generated/errors.js";
