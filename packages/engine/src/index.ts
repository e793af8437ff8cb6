export * from "./claim-rules/index.js";
export * from "./clock.js";
export * from "./engine/index.js";
export * from "./errors.js";
export { claimEffectOf, claimEntryOf, claimResultOf, consumerClaimEntry } from "./feed/claim-effect.js";
export * from "./logger.js";
export type { DecidedBy, Decision } from "./pipeline/decide.js";
export { instanceConfig, instanceView, type MemberStatus, memberStatus } from "./pipeline/views.js";
export * from "./providers/index.js";
export { inProcessRunner } from "./scriptlet/in-process-runner.js";
export { createScriptletHost } from "./scriptlet/index.js";
export type * from "./scriptlet/port.js";
export {
  createScriptletWorkerPool,
  heapLimitMb,
  type ScriptletPoolOptions,
  type ScriptletWorkerPool,
} from "./scriptlet/workers/pool.js";
export * from "./snapshot/index.js";
export * from "./store/index.js";
export * from "./write-rules/index.js";
