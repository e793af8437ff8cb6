import type { Inventory } from "@berth/resources";
import type { ClusterMemberView } from "../scriptlet/port.js";
import type { MemberUsage } from "../store/port.js";
import type { InventoryRecord, MemberRecord } from "../store/records.js";

/** Per-project instance counts on one member. */
export interface ProjectCounts {
  instances: number;
  forthcoming: number;
  containers: number;
  virtualMachines: number;
}

export function emptyCounts(): ProjectCounts {
  return { instances: 0, forthcoming: 0, containers: 0, virtualMachines: 0 };
}

/** Converts the store's camelCase inventory into @berth/resources' wire-shaped one. */
export function toResourcesInventory(record: InventoryRecord): Inventory {
  return {
    total: record.total,
    reserved: record.reserved,
    min_unit: record.minUnit,
    max_unit: record.maxUnit,
    step_size: record.stepSize,
    allocation_ratio: record.allocationRatio,
  };
}

/**
 * The engine's live view of one member: its record plus usage and counts,
 * kept in step incrementally so a placement reads O(1) per member.
 */
export class MemberState {
  record: MemberRecord;
  inventories: Record<string, Inventory> = {};
  /** Usage per class by real instances (store ledger "used"). */
  used = new Map<string, number>();
  /** Usage per class by reservations (store ledger "forthcoming"). */
  forthcoming = new Map<string, number>();
  /** Usage per class by placements decided but not yet claimed (in flight). */
  pending = new Map<string, number>();
  /** Stored instances including reservations, all projects. */
  instanceCount = 0;
  /** In-flight placements (decided, not yet claimed). */
  pendingCount = 0;
  readonly byProject = new Map<string, ProjectCounts>();
  /** Pending placements per project (scriptlet `get_instances_count(pending=True)`). */
  readonly pendingByProject = new Map<string, number>();
  heartbeatMs: number | null;
  /** The frozen scriptlet view of `record` (pipeline/views.ts memberView), rebuilt when the record changes. */
  viewCache: { record: MemberRecord; view: ClusterMemberView } | null = null;

  constructor(record: MemberRecord) {
    this.record = record;
    this.heartbeatMs = record.lastHeartbeat === null ? null : Date.parse(record.lastHeartbeat);
    this.setRecord(record);
  }

  get name(): string {
    return this.record.name;
  }

  setRecord(record: MemberRecord): void {
    this.record = record;
    this.heartbeatMs = record.lastHeartbeat === null ? null : Date.parse(record.lastHeartbeat);
    const inventories: Record<string, Inventory> = {};
    for (const [resourceClass, inventory] of Object.entries(record.inventories)) {
      inventories[resourceClass] = toResourcesInventory(inventory);
    }
    this.inventories = inventories;
  }

  /** used + forthcoming + pending per class, kept in step so the capacity filter reads one entry. */
  private readonly consumedByClass = new Map<string, number>();

  setUsage(usage: MemberUsage): void {
    this.used = new Map(Object.entries(usage.used));
    this.forthcoming = new Map(Object.entries(usage.forthcoming));
    const consumed = this.consumedByClass;
    consumed.clear();
    for (const ledger of [this.used, this.forthcoming, this.pending]) {
      for (const [resourceClass, amount] of ledger) {
        consumed.set(resourceClass, (consumed.get(resourceClass) ?? 0) + amount);
      }
    }
  }

  /** Holds (or, negative, releases) in-flight capacity. */
  addPending(resourceClass: string, amount: number): void {
    this.pending.set(resourceClass, (this.pending.get(resourceClass) ?? 0) + amount);
    this.consumedByClass.set(resourceClass, (this.consumedByClass.get(resourceClass) ?? 0) + amount);
  }

  /** What counts against capacity for a new placement: both ledgers plus in-flight. */
  consumed(resourceClass: string): number {
    return this.consumedByClass.get(resourceClass) ?? 0;
  }

  /** Default-policy load: stored instances (reservations included) plus in-flight ones. */
  get load(): number {
    return this.instanceCount + this.pendingCount;
  }

  isOnline(nowMs: number, offlineThresholdMs: number): boolean {
    return this.heartbeatMs !== null && nowMs - this.heartbeatMs <= offlineThresholdMs;
  }
}
