/**
 * Step 5: claim through the store. Each decision holds capacity in the
 * model as an in-flight placement while the claim runs (so other
 * placements in this process see it); the store re-checks against its own
 * usage. A lost race (another process took the room) refreshes the model's
 * view of the member concerned and re-plans, a bounded number of times: it
 * never overcommits.
 *
 * A ClaimDraft gathers one attempt's writes: `create` and `move` turn a
 * decided PlacementRequest into the stored record and hold its capacity,
 * `replace` and `remove` edit without placing. If planning the attempt
 * fails half-way, everything it held is released.
 */
import type { EngineRuntime } from "../engine/runtime.js";
import { EngineError } from "../errors.js";
import { hasLimits } from "../expand/project-limits.js";
import type { PendingPlacement } from "../model/cluster-model.js";
import { allocationsOf } from "../store/allocations.js";
import type { Claim, ClaimFailureDetails, ClaimResult, NewInstance, ProjectLimits } from "../store/port.js";
import type { InstanceRecord } from "../store/records.js";
import type { PlacementRequest } from "./request.js";

/** The capacity a decided placement holds in the model until its claim settles. */
export function pendingOf(request: PlacementRequest, member: string): PendingPlacement {
  return {
    member,
    project: request.projectName,
    resources: request.resources,
    placementGroup: request.placementGroup,
  };
}

/** The record a create claim writes for a request placed on `member`. */
export function recordOf(
  request: PlacementRequest,
  member: string,
  memberArchitecture: string,
  createdAt: string,
): NewInstance {
  return {
    id: request.id,
    project: request.projectName,
    name: request.name,
    type: request.type,
    location: member,
    forthcoming: request.forthcoming,
    architecture:
      request.architecture !== "" ? request.architecture : (request.architectures?.[0] ?? memberArchitecture),
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
    allocations: allocationsOf(member, request.resources, request.forthcoming ? "forthcoming" : "used"),
    limitsUsage: request.limitsUsage,
  };
}

/** A stored instance moved to `member` (allocations follow it). */
export function movedRecord(record: InstanceRecord, member: string, origin: string | null): NewInstance {
  const { revision: _revision, ...rest } = record;
  return {
    ...rest,
    location: member,
    origin,
    allocations: record.allocations.map((row) => ({ ...row, member })),
  };
}

/** One attempt's writes: the claim, the capacity it holds in the model, the records it replaces. */
export class ClaimDraft {
  readonly claim: Claim = {};
  /** In-flight placements held for this claim (a bulk create keeps them in request order). */
  readonly pendings: PendingPlacement[] = [];
  /** Stored versions of every replaced or removed instance (to update counts). */
  readonly previous: InstanceRecord[] = [];

  constructor(private readonly runtime: EngineRuntime) {}

  /**
   * The request's new instance on `member`. `slot` places it in the claim
   * (a bulk create answers in request order, whatever the placement order).
   */
  create(
    request: PlacementRequest,
    member: string,
    createdAt = this.runtime.clock.now().toISOString(),
    slot = this.pendings.length,
  ): void {
    this.hold(request, member, slot);
    const memberArchitecture = this.runtime.model.member(member)?.record.architecture ?? "";
    this.claim.create ??= [];
    this.claim.create[slot] = recordOf(request, member, memberArchitecture, createdAt);
  }

  /** A stored instance placed on `member` (`origin`: the member it is evacuated from, if any). */
  move(request: PlacementRequest, record: InstanceRecord, member: string, origin: string | null): void {
    this.hold(request, member, this.pendings.length);
    this.replace(record, movedRecord(record, member, origin));
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
      if (pending !== undefined) this.runtime.model.releasePending(pending);
  }

  private hold(request: PlacementRequest, member: string, slot: number): void {
    const pending = pendingOf(request, member);
    this.runtime.model.addPending(pending);
    this.pendings[slot] = pending;
  }
}

const RETRIABLE: ReadonlySet<ClaimFailureDetails["reason"]> = new Set([
  "capacity",
  "constraints",
  "no_inventory",
  "member_missing",
]);

function failureOf(error: unknown): ClaimFailureDetails | undefined {
  if (!(error instanceof EngineError)) return undefined;
  const details = error.details as ClaimFailureDetails | undefined;
  return details !== undefined && typeof details.reason === "string" ? details : undefined;
}

export function isRetriable(error: unknown): boolean {
  const failure = failureOf(error);
  return failure !== undefined && RETRIABLE.has(failure.reason);
}

/**
 * Drops the in-flight placements of a successful claim. When the claim only
 * created instances, each exactly where its placement was held (creates and
 * bulk creates), no member's load shrinks, so the default policy's scan
 * hints survive; anything else (moves, removals) releases normally.
 */
function settleAll(runtime: EngineRuntime, draft: ClaimDraft, result: ClaimResult): void {
  const { pendings } = draft;
  const inPlace =
    draft.previous.length === 0 &&
    result.instances.length === pendings.length &&
    pendings.every((pending, index) => result.instances[index]?.location === pending.member);
  if (inPlace) for (const pending of pendings) runtime.model.settlePending(pending);
  else draft.release();
}

/** Brings the model in line with the store after a claim succeeded. */
export function applyClaim(runtime: EngineRuntime, draft: ClaimDraft, result: ClaimResult): void {
  runtime.model.setUsage(result.usage);
  for (const { member, evacuated } of draft.claim.memberStates ?? []) {
    const state = runtime.model.member(member);
    if (state !== undefined && state.record.evacuated !== evacuated)
      runtime.model.upsertMember({ ...state.record, evacuated });
  }
  for (const old of draft.previous) runtime.model.countInstance(old, -1);
  for (const stored of result.instances) runtime.model.countInstance(stored, 1);
}

/** After a lost race: re-read what the store knows about the member that refused. */
async function refreshAfterLoss(runtime: EngineRuntime, error: unknown): Promise<void> {
  const failure = failureOf(error);
  if (failure === undefined) return;
  if ("member" in failure) {
    const member = failure.member;
    const record = await runtime.store.getMember(member);
    if (record === undefined) runtime.model.removeMember(member);
    else {
      runtime.model.upsertMember(record);
      runtime.model.setUsage(await runtime.store.memberUsage([member]));
    }
  }
}

/**
 * Plans an attempt into a fresh draft (synchronously: the candidates and
 * decide steps, holding capacity), claims it, and re-plans after a lost
 * race, at most `attempts` times. `plan` throws when nothing fits; what it
 * held by then is released.
 */
export async function claimWithRetries(
  runtime: EngineRuntime,
  attempts: number,
  plan: (draft: ClaimDraft) => void,
): Promise<{ result: ClaimResult; draft: ClaimDraft; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const draft = new ClaimDraft(runtime);
    try {
      plan(draft);
    } catch (error) {
      draft.release();
      throw error;
    }
    let result: ClaimResult;
    try {
      result = await runtime.store.claim(draft.claim);
    } catch (error) {
      draft.release();
      if (!isRetriable(error) || attempt >= attempts) throw error;
      runtime.logger.log("debug", "claim lost a race; re-planning", {
        attempt,
        error: error instanceof Error ? error.message : String(error),
      });
      runtime.metrics.claimRetries += 1;
      await refreshAfterLoss(runtime, error);
      continue;
    }
    settleAll(runtime, draft, result);
    applyClaim(runtime, draft, result);
    return { result, draft, attempts: attempt };
  }
}
