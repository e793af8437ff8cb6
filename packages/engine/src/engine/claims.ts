/**
 * Step 5: claim through the store. The plan holds capacity in the model as
 * in-flight placements while the claim runs (so concurrent placements in this
 * process see it); the store re-checks against its own usage. A lost race
 * (another process took the room) refreshes the model's view of the member
 * concerned and re-plans, a bounded number of times: it never overcommits.
 */
import { EngineError } from "../errors.js";
import type { PendingPlacement } from "../model/cluster-model.js";
import type { Claim, ClaimFailureDetails, ClaimResult } from "../store/port.js";
import type { InstanceRecord } from "../store/records.js";
import type { EngineRuntime } from "./runtime.js";

/** One planned write: the claim, the capacity it holds in the model, the records it replaces. */
export interface PlannedClaim {
  claim: Claim;
  pendings: PendingPlacement[];
  /** Stored versions of every replaced or removed instance (to update counts). */
  previous: InstanceRecord[];
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

function releaseAll(runtime: EngineRuntime, pendings: PendingPlacement[]): void {
  for (const pending of pendings) runtime.model.releasePending(pending);
}

/**
 * Drops the in-flight placements of a successful claim. When the claim only
 * created instances, each exactly where its placement was held (creates and
 * bulk creates), no member's load shrinks, so the default policy's scan
 * hints survive; anything else (moves, removals) releases normally.
 */
function settleAll(runtime: EngineRuntime, planned: PlannedClaim, result: ClaimResult): void {
  const { pendings } = planned;
  const inPlace =
    planned.previous.length === 0 &&
    result.instances.length === pendings.length &&
    pendings.every((pending, index) => result.instances[index]?.location === pending.member);
  if (inPlace) for (const pending of pendings) runtime.model.settlePending(pending);
  else releaseAll(runtime, pendings);
}

/** Brings the model in line with the store after a claim succeeded. */
export function applyClaim(runtime: EngineRuntime, planned: PlannedClaim, result: ClaimResult): void {
  runtime.model.setUsage(result.usage);
  for (const old of planned.previous) runtime.model.countInstance(old, -1);
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
 * Plans (synchronously, holding capacity), claims, and re-plans after a lost
 * race, at most `attempts` times. `build` throws when nothing fits.
 */
export async function claimWithRetries(
  runtime: EngineRuntime,
  attempts: number,
  build: () => PlannedClaim,
): Promise<{ result: ClaimResult; planned: PlannedClaim; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const planned = build();
    let result: ClaimResult;
    try {
      result = await runtime.store.claim(planned.claim);
    } catch (error) {
      releaseAll(runtime, planned.pendings);
      if (!isRetriable(error) || attempt >= attempts) throw error;
      runtime.logger.log("debug", "claim lost a race; re-planning", {
        attempt,
        error: error instanceof Error ? error.message : String(error),
      });
      runtime.metrics.claimRetries += 1;
      await refreshAfterLoss(runtime, error);
      continue;
    }
    settleAll(runtime, planned, result);
    applyClaim(runtime, planned, result);
    return { result, planned, attempts: attempt };
  }
}
