// octet-extension-sdk/testing: run an extension against a scripted host, in-process or as a
// real child process, and inspect every frame.
export { ScriptedHost } from "./host.js";
export type { Frame, HostOptions, Response } from "./host.js";
export type { HostReply, HostScript } from "./services.js";
export { ReverseServices } from "./services.js";
export type { Exit, Link, ProcessLinkOptions } from "./links.js";
export { inProcessLink, processLink } from "./links.js";
