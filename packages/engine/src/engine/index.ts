export * from "./catalog.js";
export * from "./engine.js";
export type { InstanceExpansion } from "./instance-expansion.js";
export type { MoveOutcome } from "./instance-ops.js";
export type { InventoryView, MemberInfo, MemberInput, MemberUpdate } from "./members.js";
export type { EngineMetricsSnapshot } from "./metrics.js";
export type { BulkOrder, BulkOutcome, CreateOptions, DryRunOptions, PlacementOutcome } from "./placer.js";
export type { RebalanceMove, RebalanceOptions, RebalancePlan } from "./rebalance.js";
export type { EvacuationOutcome, MovedInstance } from "./relocation.js";
