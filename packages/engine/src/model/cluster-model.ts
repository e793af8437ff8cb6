/**
 * The engine's in-memory cluster model: per-member usage per class (both
 * ledgers plus in-flight placements), instance counts per member and project,
 * placement-group membership counts and project usage. Hydrated from the
 * store's aggregate snapshot and kept in step incrementally, so deciding one
 * placement costs O(members) and nothing per existing instance.
 */
import { countInProject, zeroProjectTotals } from "../rules/claims/project-usage.js";
import { type ClaimEffect, type CountedChange, countedChangeOf } from "../store/change-feed.js";
import type { MemberUsage, ProjectUsageRow, StoreSnapshot } from "../store/port.js";
import type {
  GroupRecord,
  InstanceRecord,
  MemberRecord,
  PlacementGroupRecord,
  ProjectRecord,
} from "../store/records.js";
import { ChangeJournal } from "./change-journal.js";
import { emptyCounts, MemberState } from "./member-state.js";
import { TreeHolds } from "./member-tree.js";

/** One placement decided but not yet claimed; it holds capacity in the model until released. */
export interface PendingPlacement {
  member: string;
  project: string;
  resources: Record<string, number>;
  placementGroup: string | null;
  /** Classes held on a child provider of the member's tree (class -> provider uuid), not on the member. */
  children?: Readonly<Record<string, string>>;
}

function emptyProjectUsage(project: string): ProjectUsageRow {
  return { project, ...zeroProjectTotals() };
}

const groupKey = (project: string, group: string) => `${project}\u0000${group}`;

/**
 * What of a member record the placement stack's cached candidate sets
 * depend on (the stack derives it from its static filters' declarations):
 * a record change that leaves it equal keeps every cached set.
 */
export type StaticSignature = (record: MemberRecord) => string;

export class ClusterModel {
  private readonly members = new Map<string, MemberState>();
  /** Members in join order (the LXD/Incus tie-break). */
  private ordered: MemberState[] = [];
  readonly groups = new Map<string, GroupRecord>();
  readonly projects = new Map<string, ProjectRecord>();
  readonly placementGroups = new Map<string, PlacementGroupRecord>();
  private readonly groupCounts = new Map<string, Map<string, number>>();
  private readonly projectUsage = new Map<string, ProjectUsageRow>();
  /** Placements decided but not yet claimed; they survive a re-hydration. */
  private readonly inFlight = new Set<PendingPlacement>();
  /** What in-flight placements hold on child providers of members' trees. */
  readonly treeHolds = new TreeHolds();
  /** Members whose usage-relevant state changed, in order (decide/usage-verdicts.ts reads it). */
  readonly changes = new ChangeJournal<MemberState>();
  private loadMoves = 0;
  private staticMoves = 0;

  /** `staticSignature`: what cached candidate sets read of a member (PlacementStack.memberSignature). */
  constructor(private readonly staticSignature: StaticSignature) {}

  static fromSnapshot(snapshot: StoreSnapshot, staticSignature: StaticSignature): ClusterModel {
    const model = new ClusterModel(staticSignature);
    model.hydrate(snapshot);
    return model;
  }

  /** Moves whenever a member's load may have gone down (rankers' `growsOnlyAtEpoch`). */
  get loadEpoch(): number {
    return this.loadMoves;
  }

  /**
   * Moves whenever the members or their order change, or a member record
   * changes in what `staticSignature` covers: cached candidate sets are
   * valid only at the epoch they were computed at.
   */
  get staticEpoch(): number {
    return this.staticMoves;
  }

  hydrate(snapshot: StoreSnapshot): void {
    this.loadMoves += 1;
    this.staticMoves += 1;
    this.members.clear();
    this.groups.clear();
    this.projects.clear();
    this.placementGroups.clear();
    this.groupCounts.clear();
    this.projectUsage.clear();
    for (const record of snapshot.members)
      this.members.set(record.name, new MemberState(record, this.changes));
    this.reorder();
    for (const group of snapshot.groups) this.groups.set(group.name, group);
    for (const project of snapshot.projects) this.projects.set(project.name, project);
    for (const group of snapshot.placementGroups) {
      this.placementGroups.set(groupKey(group.project, group.name), group);
    }
    for (const usage of snapshot.usage) this.members.get(usage.member)?.setUsage(usage);
    for (const row of snapshot.instanceCounts) {
      const member = this.members.get(row.member);
      if (member === undefined) continue;
      member.instanceCount += row.instances;
      const counts = member.byProject.get(row.project) ?? emptyCounts();
      counts.instances += row.instances;
      counts.forthcoming += row.forthcoming;
      counts.containers += row.containers;
      counts.virtualMachines += row.virtualMachines;
      member.byProject.set(row.project, counts);
    }
    for (const row of snapshot.placementGroupCounts) {
      this.bumpGroupCount(row.project, row.group, row.member, row.instances);
    }
    for (const row of snapshot.projectUsage) this.projectUsage.set(row.project, { ...row });
    this.treeHolds.clear();
    for (const placement of this.inFlight) this.applyPending(placement, 1);
  }

  private reorder(): void {
    this.ordered = [...this.members.values()].sort((a, b) => a.record.joinOrder - b.record.joinOrder);
  }

  // --- members -----------------------------------------------------------------

  member(name: string): MemberState | undefined {
    return this.members.get(name);
  }

  /** All members in join order. */
  allMembers(): readonly MemberState[] {
    return this.ordered;
  }

  upsertMember(record: MemberRecord): MemberState {
    const existing = this.members.get(record.name);
    if (existing !== undefined) {
      if (this.staticSignature(existing.record) !== this.staticSignature(record)) this.staticMoves += 1;
      const reordered = existing.record.joinOrder !== record.joinOrder;
      existing.setRecord(record);
      if (reordered) {
        this.staticMoves += 1;
        this.reorder();
      }
      return existing;
    }
    const state = new MemberState(record, this.changes);
    this.members.set(record.name, state);
    this.staticMoves += 1;
    // Members join in increasing order: appending keeps registration O(1) per member.
    const last = this.ordered[this.ordered.length - 1];
    if (last === undefined || last.record.joinOrder < record.joinOrder) this.ordered.push(state);
    else this.reorder();
    return state;
  }

  /**
   * A member that (re)joined: a fresh state with no usage or counts (a new
   * member hosts nothing; what it gets later arrives as claim effects),
   * replacing any earlier member of that name.
   */
  joinMember(record: MemberRecord): MemberState {
    if (this.members.has(record.name)) {
      this.removeMember(record.name);
      for (const perMember of this.groupCounts.values()) perMember.delete(record.name);
    }
    return this.upsertMember(record);
  }

  removeMember(name: string): void {
    if (this.members.delete(name)) {
      this.staticMoves += 1;
      this.reorder();
    }
  }

  setUsage(rows: MemberUsage[]): void {
    for (const row of rows) this.members.get(row.member)?.setUsage(row);
  }

  // --- catalog mirrors ------------------------------------------------------------

  /** Replaces the catalog mirrors with the store's rows (another engine changed them). */
  replaceCatalog(
    groups: GroupRecord[],
    projects: ProjectRecord[],
    placementGroups: PlacementGroupRecord[],
  ): void {
    this.groups.clear();
    for (const group of groups) this.groups.set(group.name, group);
    this.projects.clear();
    for (const project of projects) this.projects.set(project.name, project);
    this.placementGroups.clear();
    for (const group of placementGroups) this.placementGroups.set(groupKey(group.project, group.name), group);
  }

  placementGroup(project: string, name: string): PlacementGroupRecord | undefined {
    return this.placementGroups.get(groupKey(project, name));
  }

  setPlacementGroup(group: PlacementGroupRecord): void {
    this.placementGroups.set(groupKey(group.project, group.name), group);
  }

  deletePlacementGroup(project: string, name: string): void {
    this.placementGroups.delete(groupKey(project, name));
  }

  // --- counts ---------------------------------------------------------------------

  /** Instances of a placement group per member. */
  groupCountsOf(project: string, group: string): ReadonlyMap<string, number> {
    return this.groupCounts.get(groupKey(project, group)) ?? new Map();
  }

  private bumpGroupCount(project: string, group: string, member: string, by: number): void {
    const key = groupKey(project, group);
    let perMember = this.groupCounts.get(key);
    if (perMember === undefined) this.groupCounts.set(key, (perMember = new Map()));
    const next = (perMember.get(member) ?? 0) + by;
    if (next === 0) perMember.delete(member);
    else perMember.set(member, next);
  }

  projectUsageOf(project: string): ProjectUsageRow {
    return this.projectUsage.get(project) ?? emptyProjectUsage(project);
  }

  /** Instances (incl. reservations) of a project on a member, or in the whole cluster. */
  instancesCount(filter: { project?: string; location?: string; pending: boolean }): number {
    const members =
      filter.location === undefined
        ? this.ordered
        : [this.members.get(filter.location)].filter((m): m is MemberState => m !== undefined);
    let total = 0;
    for (const member of members) {
      if (filter.project === undefined) {
        total += member.instanceCount + (filter.pending ? member.pendingCount : 0);
      } else {
        total += member.byProject.get(filter.project)?.instances ?? 0;
        if (filter.pending) total += member.pendingByProject.get(filter.project) ?? 0;
      }
    }
    return total;
  }

  // --- incremental updates -------------------------------------------------------------

  /** Holds capacity and counts for a decided placement until it is claimed or abandoned. */
  addPending(placement: PendingPlacement): void {
    this.inFlight.add(placement);
    this.applyPending(placement, 1);
  }

  releasePending(placement: PendingPlacement): void {
    if (this.inFlight.delete(placement)) {
      this.loadMoves += 1;
      this.applyPending(placement, -1);
    }
  }

  /**
   * Releases a placement whose claim created the instance on the same
   * member: the caller counts that instance (`countInstance(+1)`) right
   * after, so the member's load does not shrink and scan hints stay valid.
   */
  settlePending(placement: PendingPlacement): void {
    if (this.inFlight.delete(placement)) this.applyPending(placement, -1);
  }

  private applyPending(placement: PendingPlacement, sign: number): void {
    const children = placement.children;
    // Holds on child providers are keyed by provider, so they are given back even if the member went.
    if (children !== undefined)
      for (const [resourceClass, child] of Object.entries(children))
        this.treeHolds.add(child, resourceClass, sign * (placement.resources[resourceClass] ?? 0));
    const member = this.members.get(placement.member);
    if (member === undefined) return;
    // for-in, not Object.entries: this runs twice per placement (held, then settled), and the
    // entries arrays were ~0.4 KB of a create's ~24 KB of garbage (2026-11-29).
    const resources = placement.resources;
    for (const resourceClass in resources) {
      if (children?.[resourceClass] === undefined)
        member.addPending(resourceClass, sign * resources[resourceClass]!);
    }
    member.pendingCount += sign;
    member.pendingByProject.set(
      placement.project,
      (member.pendingByProject.get(placement.project) ?? 0) + sign,
    );
    if (placement.placementGroup !== null) {
      this.bumpGroupCount(placement.project, placement.placementGroup, placement.member, sign);
    }
  }

  /**
   * Applies a committed claim's effect (the change feed): usage changes per
   * member, class and ledger, and instances counted in and out. Changes for
   * members this model does not know (gone, or child providers) are skipped.
   */
  applyClaimEffect(effect: ClaimEffect): void {
    for (const [provider, resourceClass, ledger, amount] of effect.usage) {
      if (amount < 0) this.loadMoves += 1;
      this.members.get(provider)?.addUsage(ledger, resourceClass, amount);
    }
    for (const change of effect.instances) this.countShape(change, change.count);
  }

  /**
   * Applies a stored instance appearing (+1) or disappearing (-1) to the counts.
   * Usage comes from the store's authoritative claim answer (`setUsage`).
   */
  countInstance(instance: InstanceRecord, sign: 1 | -1): void {
    this.countShape(countedChangeOf(instance, sign), sign);
  }

  /** `count` instances of one shape appearing (positive) or disappearing (negative). */
  private countShape(shape: Omit<CountedChange, "count">, count: number): void {
    const member = this.members.get(shape.member);
    if (count < 0) this.loadMoves += 1;
    if (member !== undefined) {
      member.instanceCount += count;
      const counts = member.byProject.get(shape.project) ?? emptyCounts();
      counts.instances += count;
      if (shape.forthcoming) counts.forthcoming += count;
      if (shape.type === "container") counts.containers += count;
      else counts.virtualMachines += count;
      member.byProject.set(shape.project, counts);
    }
    if (shape.placementGroup !== null) {
      this.bumpGroupCount(shape.project, shape.placementGroup, shape.member, count);
    }
    const usage = this.projectUsage.get(shape.project) ?? emptyProjectUsage(shape.project);
    countInProject(
      usage,
      {
        type: shape.type,
        limitsUsage: { cpu: shape.cpu, memoryBytes: shape.memoryBytes, diskBytes: shape.diskBytes },
      },
      count,
    );
    this.projectUsage.set(shape.project, usage);
  }
}
