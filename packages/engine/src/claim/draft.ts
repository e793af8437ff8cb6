/**
 * A ClaimDraft gathers one attempt's writes (claim.ts): `create` and
 * `move` turn a decided PlacementRequest into the stored record and hold
 * its capacity in the model as an in-flight placement, `replace` and
 * `remove` edit without placing. If planning the attempt fails half-way,
 * everything it held is released.
 */

import type { Clock } from "../base/clock.js";
import { resourcesOn } from "../expand/member-demand.js";
import { hasLimits } from "../expand/project-limits.js";
import type { PlacementRequest } from "../expand/request.js";
import type { PendingPlacement } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import { childrenFor } from "../model/member-tree.js";
import { memberMissingFailure } from "../rules/claims/failures.js";
import { allocationsOf } from "../store/allocations.js";
import type { Claim, NewInstance, ProjectLimits } from "../store/port.js";
import type { InstanceRecord, MemberRecord, PlacementDecisionRecord } from "../store/records.js";
import type { ClaimModel } from "./context.js";

/**
 * The capacity a decided placement holds in the model on `member` until
 * its claim settles; `children` says which classes it holds on child
 * providers of the member's tree.
 */
export function pendingOf(
  request: PlacementRequest,
  member: MemberRecord,
  children?: Readonly<Record<string, string>>,
): PendingPlacement {
  const pending: PendingPlacement = {
    member: member.name,
    project: request.projectName,
    resources: resourcesOn(request, member),
    placementGroup: request.placementGroup,
  };
  if (children !== undefined) pending.children = children;
  return pending;
}

/** The record a create claim writes for a request placed on `target`, with the decision that placed it. */
export function recordOf(
  request: PlacementRequest,
  target: MemberRecord,
  createdAt: string,
  decision: PlacementDecisionRecord,
  children?: Readonly<Record<string, string>>,
): NewInstance {
  const member = target.name;
  return {
    id: request.id,
    project: request.projectName,
    name: request.name,
    type: request.type,
    location: member,
    forthcoming: request.forthcoming,
    architecture:
      request.architecture !== ""
        ? request.architecture
        : (request.architectures?.[0] ?? target.architecture),
    description: request.description,
    ephemeral: request.ephemeral,
    profiles: request.profiles,
    config: request.config,
    devices: request.devices,
    instanceType: request.instanceType,
    flavor: request.flavor,
    source: request.source,
    placementGroup: request.placementGroup,
    origin: null,
    createdAt,
    // allocationsOf only reads the amounts (its rows are new objects): no copy of them needed.
    allocations: allocationsOf(
      member,
      resourcesOn(request, target),
      request.forthcoming ? "forthcoming" : "used",
      children,
    ),
    limitsUsage: request.limitsUsage,
    decision,
  };
}

/**
 * A stored instance moved to `target`, with the decision that moved it.
 * Its allocations follow it (rows on child providers go to the children of
 * the target's tree chosen for them, `children`); a memory share
 * (`request.memoryShare`) is sized again against the target's memory, as
 * LXD applies it there.
 */
export function movedRecord(
  request: PlacementRequest,
  record: InstanceRecord,
  target: MemberRecord,
  origin: string | null,
  decision: PlacementDecisionRecord,
  children?: Readonly<Record<string, string>>,
): NewInstance {
  const { revision: _revision, ...rest } = record;
  const member = target.name;
  const ledger = record.forthcoming ? "forthcoming" : "used";
  return {
    ...rest,
    location: member,
    origin,
    allocations:
      request.memoryShare?.requested === true
        ? allocationsOf(member, resourcesOn(request, target), ledger, children)
        : record.allocations.map((row) => ({ ...row, member: children?.[row.resourceClass] ?? member })),
    decision,
  };
}

/** One attempt's writes: the claim, the capacity it holds in the model, the records it replaces. */
export class ClaimDraft {
  readonly claim: Claim = {};
  /** In-flight placements held for this claim (a bulk create keeps them in request order). */
  readonly pendings: PendingPlacement[] = [];
  /** Stored versions of every replaced or removed instance (to update counts). */
  readonly previous: InstanceRecord[] = [];

  constructor(private readonly context: { readonly model: ClaimModel; readonly clock: Clock }) {}

  /**
   * The request's new instance on `member`. `slot` places it in the claim
   * (a bulk create answers in request order, whatever the placement order).
   */
  create(
    request: PlacementRequest,
    member: string,
    decision: PlacementDecisionRecord,
    createdAt = this.context.clock.now().toISOString(),
    slot = this.pendings.length,
  ): void {
    const target = this.memberState(member);
    const children = this.hold(request, target, slot);
    this.claim.create ??= [];
    this.claim.create[slot] = recordOf(request, target.record, createdAt, decision, children);
  }

  /**
   * A stored instance placed on `member` (`origin`: the member it is
   * evacuated from, if any), with the decision that moved it.
   */
  move(
    request: PlacementRequest,
    record: InstanceRecord,
    member: string,
    origin: string | null,
    decision: PlacementDecisionRecord,
  ): void {
    const target = this.memberState(member);
    const children = this.hold(request, target, this.pendings.length);
    this.replace(record, movedRecord(request, record, target.record, origin, decision, children));
  }

  /** An edit of a stored instance, checked against its revision. */
  replace(previous: InstanceRecord, next: NewInstance): void {
    this.claim.replace ??= [];
    this.claim.replace.push({ record: next, expectedRevision: previous.revision });
    this.previous.push(previous);
  }

  remove(record: InstanceRecord): void {
    this.claim.remove ??= [];
    this.claim.remove.push({ id: record.id, expectedRevision: record.revision });
    this.previous.push(record);
  }

  /** Sets the member's maintenance state in the same claim (evacuation, restore). */
  setEvacuated(member: string, evacuated: boolean): void {
    this.claim.memberStates = [{ member, evacuated }];
  }

  /** Project limits the store re-checks with the claim (projects without limits need none). */
  limit(project: string, limits: ProjectLimits): void {
    if (!hasLimits(limits)) return;
    this.claim.projectLimits ??= {};
    this.claim.projectLimits[project] = limits;
  }

  /** Gives back everything this draft held in the model. */
  release(): void {
    for (const pending of this.pendings)
      if (pending !== undefined) this.context.model.releasePending(pending);
  }

  /** The model's state of a decided member (gone meanwhile: the store's answer, which re-plans). */
  private memberState(member: string): MemberState {
    const state = this.context.model.member(member);
    if (state === undefined) throw memberMissingFailure(member);
    return state;
  }

  /** Holds the request's capacity on `member` and its tree; answers the children chosen for it. */
  private hold(
    request: PlacementRequest,
    member: MemberState,
    slot: number,
  ): Readonly<Record<string, string>> | undefined {
    const children = childrenFor(member, resourcesOn(request, member.record));
    const pending = pendingOf(request, member.record, children);
    this.context.model.addPending(pending);
    this.pendings[slot] = pending;
    return children;
  }
}
