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

import { EngineError, unavailable } from "../base/errors.js";
import { resourcesCopyOn, resourcesOn } from "../expand/member-demand.js";
import { hasLimits } from "../expand/project-limits.js";
import type { PlacementRequest } from "../expand/request.js";
import type { PendingPlacement } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import { childrenFor } from "../model/member-tree.js";
import { memberMissingFailure } from "../rules/claims/failures.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import { allocationsOf } from "../store/allocations.js";
import type { Claim, ClaimFailureDetails, ClaimResult, NewInstance, ProjectLimits } from "../store/port.js";
import type { InstanceRecord, MemberRecord, PlacementDecisionRecord } from "../store/records.js";

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
    allocations: allocationsOf(
      member,
      resourcesCopyOn(request, target),
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
        ? allocationsOf(member, resourcesCopyOn(request, target), ledger, children)
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

  constructor(private readonly runtime: EngineRuntime) {}

  /**
   * The request's new instance on `member`. `slot` places it in the claim
   * (a bulk create answers in request order, whatever the placement order).
   */
  create(
    request: PlacementRequest,
    member: string,
    decision: PlacementDecisionRecord,
    createdAt = this.runtime.clock.now().toISOString(),
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
      if (pending !== undefined) this.runtime.model.releasePending(pending);
  }

  /** The model's state of a decided member (gone meanwhile: the store's answer, which re-plans). */
  private memberState(member: string): MemberState {
    const state = this.runtime.model.member(member);
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
    this.runtime.model.addPending(pending);
    this.pendings[slot] = pending;
    return children;
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

/** The maintenance states a committed claim set (evacuation, restore), in the model at once. */
function applyMemberStates(runtime: EngineRuntime, draft: ClaimDraft): void {
  for (const { member, evacuated } of draft.claim.memberStates ?? []) {
    const state = runtime.model.member(member);
    if (state !== undefined && state.record.evacuated !== evacuated)
      runtime.model.upsertMember({ ...state.record, evacuated });
  }
}

/** Brings the model in line with the store after a claim succeeded (a store without a change feed). */
export function applyClaim(runtime: EngineRuntime, draft: ClaimDraft, result: ClaimResult): void {
  runtime.model.setUsage(result.usage);
  applyMemberStates(runtime, draft);
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

/** Attempts per placement with a change feed: every lost race means another claim committed. */
const FEED_ATTEMPTS = 50;

/**
 * Plans an attempt into a fresh draft (the candidates and decide steps,
 * holding capacity; one plan at a time), claims it, and re-plans after a lost
 * race, at most `attempts` times. `plan` throws when nothing fits; what it
 * held by then is released.
 *
 * With a change feed (several engines on one store) the model is brought up
 * to date from the feed instead: after a lost race (someone else's claim
 * committed, so there is something to read), and before a "no capacity"
 * answer, which is only given once this engine's own claims in flight have
 * settled and a fresh read of the feed still leaves no room. A successful
 * claim's effect goes into the model as it commits, and its in-flight
 * placements are released in the same step (feed/feed-sync.ts
 * `applyOwnClaim`); no read is needed for it.
 */
export async function claimWithRetries(
  runtime: EngineRuntime,
  attempts: number,
  plan: (draft: ClaimDraft) => void | Promise<void>,
): Promise<{ result: ClaimResult; draft: ClaimDraft; attempts: number }> {
  const feed = runtime.feedSync;
  const maxAttempts = feed === undefined ? attempts : Math.max(attempts, FEED_ATTEMPTS);
  for (let attempt = 1; ; attempt++) {
    const draft =
      feed === undefined ? await planDraft(runtime, plan) : await planAuthoritatively(runtime, plan);
    const appliedBefore = feed?.applied ?? 0;
    if (feed !== undefined) draft.claim.token = feed.newToken();
    let result: ClaimResult;
    try {
      result = await runtime.runClaim(draft.claim, (committed) => {
        if (feed === undefined) {
          settleAll(runtime, draft, committed);
          applyClaim(runtime, draft, committed);
          return;
        }
        // The claim's effect is in the model, and its placements released, before anyone reads it.
        feed.applyOwnClaim(draft.claim.token!, committed.effect, () => settleAll(runtime, draft, committed));
        applyMemberStates(runtime, draft);
      });
    } catch (error) {
      draft.release();
      if (!isRetriable(error)) throw error;
      if (attempt >= maxAttempts) {
        if (feed === undefined) throw error;
        // Room may well exist: others keep winning it. Not a capacity answer.
        throw unavailable(
          `Too many concurrent placements on the same members: ${maxAttempts} attempts lost a race; nothing was written, try again`,
          { reason: "contention", retryAfterSeconds: 1 },
        );
      }
      runtime.logger.log("debug", "claim lost a race; re-planning", {
        attempt,
        error: error instanceof Error ? error.message : String(error),
      });
      runtime.metrics.claimRetries += 1;
      if (feed === undefined) await refreshAfterLoss(runtime, error);
      else {
        await feed.fresh();
        // Nobody else committed since this plan: the model was the store's state, so the
        // store's refusal is the answer (an edit that grows in place, say), not a lost race.
        if (feed.applied === appliedBefore) throw error;
      }
      continue;
    }
    return { result, draft, attempts: attempt };
  }
}

/**
 * One attempt planned into a fresh draft, one plan at a time (a plan may
 * wait for a scriptlet, see plan-lock.ts); what it held is released if
 * planning fails.
 */
function planDraft(
  runtime: EngineRuntime,
  plan: (draft: ClaimDraft) => void | Promise<void>,
): Promise<ClaimDraft> {
  return runtime.planLock.run(async () => {
    // A re-plan after a lost race may follow a feed read that changed the providers.
    await runtime.syncTrees();
    const draft = new ClaimDraft(runtime);
    try {
      await plan(draft);
    } catch (error) {
      draft.release();
      throw error;
    }
    return draft;
  });
}

/**
 * `planDraft`, but a refusal for capacity is only final once nothing of
 * this engine is in flight that could still free room (a claim of its own
 * that may fail) and a fresh read of the feed agrees: the model then is
 * exactly the store's state.
 */
async function planAuthoritatively(
  runtime: EngineRuntime,
  plan: (draft: ClaimDraft) => void | Promise<void>,
): Promise<ClaimDraft> {
  for (;;) {
    try {
      return await planDraft(runtime, plan);
    } catch (error) {
      if (!(error instanceof EngineError && error.kind === "insufficient_capacity")) throw error;
      const waited = await runtime.claimsSettled();
      await runtime.feedSync!.fresh();
      // Nothing was in flight here: the model now is the store's state, and this plan decides.
      if (!waited) return planDraft(runtime, plan);
    }
  }
}
