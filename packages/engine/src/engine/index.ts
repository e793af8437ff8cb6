/** What an instance holds per resource class (its allocation rows summed; both ledgers). */
export { resourcesOf } from "../pipeline/expand/stored.js";
export * from "./catalog.js";
export type * from "./catalog-patches.js";
export type { DryRunDecision, DryRunOutcome } from "./dry-run.js";
export * from "./engine.js";
export * from "./events.js";
export type { Precondition } from "./guarded-update.js";
export type { InstanceExpansion } from "./instance-expansion.js";
export type { MoveOutcome } from "./instance-ops.js";
export type { InventoryView, MemberInfo, MemberInput, MemberUpdate } from "./members.js";
export {
  type EngineMetricsSnapshot,
  type HistogramSnapshot,
  PLACEMENT_SECONDS_BUCKETS,
  type PlacementOperation,
  SCRIPTLET_STEPS_BUCKETS,
  type ScriptletRunOutcome,
} from "./metrics.js";
export { StallLog, type StallSource } from "./own-stall.js";
export type { BulkOrder, BulkOutcome, CreateOptions, DryRunOptions, PlacementOutcome } from "./placer.js";
export type { RebalanceMove, RebalanceOptions, RebalancePlan } from "./rebalance.js";
export type { EvacuationOutcome, MovedInstance } from "./relocation.js";
export type { ScriptletProblem } from "./scriptlet-value.js";
