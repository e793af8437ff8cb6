import type { Inventory } from "@berth/resources";
import type { ClusterMemberView } from "../scriptlet/port.js";
import type { MemberUsage } from "../store/port.js";
import type { MemberRecord } from "../store/records.js";
import type { ChangeJournal } from "./change-journal.js";
import type { MemberTree } from "./member-tree.js";

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

/**
 * The engine's live view of one member: its record plus usage and counts,
 * kept in step incrementally so a placement reads O(1) per member.
 *
 * A scriptlet placement walks every candidate several times (filter, order,
 * names, views), so what those walks read lives here, on this one object:
 * at 10,000 members each extra object a walk touches per member (record,
 * inventories, usage maps, view cache) is a cache miss that costs more than
 * the check itself.
 */
export class MemberState {
  /**
   * The member's name, fixed for its life. The model's map is keyed by this
   * very string and the scriptlet view carries it too, so looking a member
   * up by the name a scriptlet read compares pointers, not characters
   * (records are replaced, with fresh copies of the name, on every sync).
   */
  readonly name: string;
  record: MemberRecord;
  // Fields every placement reads of every candidate come first: V8 lays
  // fields out in declaration order, so they share the object's first
  // cache lines.
  /** `record.evacuated`, mirrored so status checks need not load the record. */
  evacuated = false;
  heartbeatMs: number | null = null;
  /** Stored instances including reservations, all projects. */
  instanceCount = 0;
  /** In-flight placements (decided, not yet claimed). */
  pendingCount = 0;
  /** Moves whenever inventories or consumption change: what a remembered fit verdict depends on. */
  private capacityVersion = 0;
  private fitDemand: object | null = null;
  private fitVersion = -1;
  private fitOk = false;
  /**
   * The frozen scriptlet view of `record` (views/views.ts memberView) and
   * what it was built from; rebuilt when the record or the status changes.
   */
  view: ClusterMemberView | null = null;
  viewRecord: MemberRecord | null = null;
  viewStatus: string | null = null;
  /** The token of the candidate set last listed with this member in it (candidates/candidate-set.ts). */
  candidacy = 0;

  inventories: Record<string, Inventory> = {};
  private ownTree: MemberTree | undefined = undefined;
  /** Usage per class by real instances (store ledger "used"). */
  used = new Map<string, number>();
  /** Usage per class by reservations (store ledger "forthcoming"). */
  forthcoming = new Map<string, number>();
  /** Usage per class by placements decided but not yet claimed (in flight). */
  pending = new Map<string, number>();
  readonly byProject = new Map<string, ProjectCounts>();
  /** Pending placements per project (scriptlet `get_instances_count(pending=True)`). */
  readonly pendingByProject = new Map<string, number>();
  /** used + forthcoming + pending per class, kept in step so the capacity filter reads one entry. */
  private readonly consumedByClass = new Map<string, number>();

  /** `journal`: where this member notes its changes (its model's; none for a member built alone). */
  constructor(
    record: MemberRecord,
    private readonly journal: ChangeJournal<MemberState> | null = null,
  ) {
    this.name = record.name;
    this.record = record;
    this.setRecord(record);
  }

  /** The child providers under the member's root, when it has any with inventories (member-tree.ts). */
  get tree(): MemberTree | undefined {
    return this.ownTree;
  }

  set tree(tree: MemberTree | undefined) {
    if (tree === this.ownTree) return;
    this.ownTree = tree;
    this.journal?.note(this);
  }

  setRecord(record: MemberRecord): void {
    this.record = record;
    this.evacuated = record.evacuated;
    this.heartbeatMs = record.lastHeartbeat === null ? null : Date.parse(record.lastHeartbeat);
    this.inventories = record.inventories;
    this.changed();
  }

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
    this.changed();
  }

  /** Adds a committed usage change (the change feed's claim effects). */
  addUsage(ledger: "used" | "forthcoming", resourceClass: string, amount: number): void {
    const map = ledger === "used" ? this.used : this.forthcoming;
    const next = (map.get(resourceClass) ?? 0) + amount;
    if (next === 0) map.delete(resourceClass);
    else map.set(resourceClass, next);
    this.consumedByClass.set(resourceClass, (this.consumedByClass.get(resourceClass) ?? 0) + amount);
    this.changed();
  }

  /** Holds (or, negative, releases) in-flight capacity. */
  addPending(resourceClass: string, amount: number): void {
    this.pending.set(resourceClass, (this.pending.get(resourceClass) ?? 0) + amount);
    this.consumedByClass.set(resourceClass, (this.consumedByClass.get(resourceClass) ?? 0) + amount);
    this.changed();
  }

  /** Inventories, consumption or the record moved: remembered verdicts lapse, the journal hears of it. */
  private changed(): void {
    this.capacityVersion += 1;
    this.journal?.note(this);
  }

  /** What counts against capacity for a new placement: both ledgers plus in-flight. */
  consumed(resourceClass: string): number {
    return this.consumedByClass.get(resourceClass) ?? 0;
  }

  /**
   * The capacity verdict remembered for `demand` (compared by identity),
   * or undefined when none is, or inventories or consumption changed since.
   * Between two placements only the chosen member's consumption moves, so
   * the other members answer from here.
   */
  knownFit(demand: object): boolean | undefined {
    return this.fitDemand === demand && this.fitVersion === this.capacityVersion ? this.fitOk : undefined;
  }

  rememberFit(demand: object, ok: boolean): void {
    this.fitDemand = demand;
    this.fitVersion = this.capacityVersion;
    this.fitOk = ok;
  }

  /** Default-policy load: stored instances (reservations included) plus in-flight ones. */
  get load(): number {
    return this.instanceCount + this.pendingCount;
  }

  isOnline(nowMs: number, offlineThresholdMs: number): boolean {
    return this.heartbeatMs !== null && nowMs - this.heartbeatMs <= offlineThresholdMs;
  }
}
