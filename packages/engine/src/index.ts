export * from "./clock.js";
export * from "./engine/index.js";
export * from "./errors.js";
export * from "./logger.js";
export type { DecidedBy, Decision } from "./pipeline/decide.js";
export { instanceView, type MemberStatus, memberStatus } from "./pipeline/views.js";
export { createScriptletHost } from "./scriptlet/index.js";
export type * from "./scriptlet/port.js";
export * from "./store/index.js";
