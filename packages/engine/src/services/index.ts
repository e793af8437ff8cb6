/** What an instance holds per resource class (its allocation rows summed; both ledgers). */

export type { InstanceExpansion } from "../expand/instance-expansion.js";
export { resourcesOf } from "../expand/stored.js";
export type {
  AutomaticMove,
  AutomaticRebalanceRun,
  RebalanceGroup,
  StayedInstance,
  StayReason,
} from "../health/automatic-rebalance.js";
export * from "../runtime/events.js";
export {
  type EngineMetricsSnapshot,
  type HistogramSnapshot,
  PLACEMENT_SECONDS_BUCKETS,
  type PlacementOperation,
  SCRIPTLET_STEPS_BUCKETS,
  type ScriptletRunOutcome,
} from "../runtime/metrics.js";
export { StallLog, type StallSource } from "../runtime/own-stall.js";
export type {
  CapacityAnswer,
  CapacityOptions,
  CapacityPlanner,
  FlavorCapacity,
  LargestMultiple,
} from "./capacity.js";
export type { CapacityCount, MemberCapacity } from "./capacity-count.js";
export type { LimitRoom, ProjectRoom } from "./capacity-project.js";
export * from "./catalog.js";
export type * from "./catalog-patches.js";
export { ClusterMembers } from "./cluster-members.js";
export type { DryRunDecision, DryRunOutcome } from "./dry-run.js";
export * from "./engine.js";
export type { Precondition } from "./guarded-update.js";
export type { MoveOutcome } from "./instance-ops.js";
export { Instances } from "./instances.js";
export type { InventoryView, MemberInfo, MemberInput, MemberUpdate } from "./members.js";
export { Consumers, type UsageQuery } from "./placement/consumers.js";
export {
  type NewProvider,
  type ProviderChanges,
  type ProviderRefusal,
  Providers,
  type TraitQuery,
} from "./placement/providers.js";
export type { AllocationRequest, ReshapeRequest } from "./placement/reshaper.js";
export type { BulkOrder, BulkOutcome, CreateOptions, DryRunOptions, PlacementOutcome } from "./placer.js";
export type { RebalanceMove, RebalanceOptions, RebalancePlan } from "./rebalance.js";
export { type AutomaticRebalancePreview, Rebalancing } from "./rebalancing.js";
export type { EvacuationOutcome, MovedInstance } from "./relocation.js";
export type { ScriptletProblem } from "./scriptlet-value.js";
export { ServerConfig } from "./server-config.js";
