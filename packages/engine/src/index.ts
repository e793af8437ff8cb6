/**
 * @berth/engine: placement as a library. `createEngine` over a Store (the
 * in-memory one here, SQLite or PostgreSQL from the adapters) gives the facade
 * berthd's HTTP API maps onto; the Store port, its claim rules and the
 * scriptlet host are here too.
 *
 * @module @berth/engine
 */
export * from "./base/clock.js";
export * from "./base/deep-freeze.js";
export * from "./base/errors.js";
export * from "./base/logger.js";
export type { DecidedBy, Decision } from "./decide/decide.js";
export * from "./ganeti/index.js";
export * from "./memory-store/memory-store.js";
export * from "./providers/index.js";
export {
  claimEffectOf,
  claimEntryOf,
  claimResultOf,
  consumerClaimEntry,
} from "./rules/claims/claim-effect.js";
export * from "./rules/index.js";
export * from "./rules/writes/index.js";
export { inProcessRunner } from "./scriptlet/in-process-runner.js";
export { createScriptletHost } from "./scriptlet/index.js";
export type * from "./scriptlet/port.js";
export {
  createScriptletWorkerPool,
  heapLimitMb,
  type ScriptletPoolOptions,
  type ScriptletWorkerPool,
} from "./scriptlet/workers/pool.js";
export * from "./services/index.js";
export * from "./store/index.js";
export { instanceConfig, instanceView, type MemberStatus, memberStatus } from "./views/views.js";
