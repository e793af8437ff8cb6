/**
 * Step 5: claim through the store. The plan holds capacity in the model as
 * in-flight placements while the claim runs (so concurrent placements in this
 * process see it); the store re-checks against its own usage. A lost race
 * (another process took the room) refreshes the model's view of the member
 * concerned and re-plans, a bounded number of times: it never overcommits.
 */
import { EngineError, unavailable } from "../errors.js";
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

/** Attempts per placement with a change feed: every lost race means another claim committed. */
const FEED_ATTEMPTS = 50;

/**
 * Plans (synchronously, holding capacity), claims, and re-plans after a lost
 * race, at most `attempts` times. `build` throws when nothing fits.
 *
 * With a change feed (several engines on one store) the model is brought up
 * to date from the feed instead: after a lost race (someone else's claim
 * committed, so there is something to read), and before a "no capacity"
 * answer, which is only given once this engine's own claims in flight have
 * settled and a fresh read of the feed still leaves no room. After a
 * successful claim the engine reads the feed too: its own claim's entry
 * brings usage and counts, and its in-flight placements are released in the
 * same step.
 */
export async function claimWithRetries(
  runtime: EngineRuntime,
  attempts: number,
  build: () => PlannedClaim,
): Promise<{ result: ClaimResult; planned: PlannedClaim; attempts: number }> {
  const feed = runtime.feedSync;
  const maxAttempts = feed === undefined ? attempts : Math.max(attempts, FEED_ATTEMPTS);
  for (let attempt = 1; ; attempt++) {
    const planned = feed === undefined ? build() : await buildAuthoritatively(runtime, build);
    const appliedBefore = feed?.applied ?? 0;
    let result: ClaimResult;
    try {
      result = await runtime.trackClaim(runtime.store.claim(planned.claim));
    } catch (error) {
      releaseAll(runtime, planned.pendings);
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
    if (feed === undefined) {
      settleAll(runtime, planned, result);
      applyClaim(runtime, planned, result);
    } else {
      feed.settleAfterRead(() => settleAll(runtime, planned, result));
      // The claim is committed whatever happens to this read; a failed read is retried by the next one.
      await feed.fresh().catch((error: unknown) =>
        runtime.logger.log("warn", "change feed read after a claim failed", {
          error: error instanceof Error ? error.message : String(error),
        }),
      );
    }
    return { result, planned, attempts: attempt };
  }
}

/**
 * `build`, but a refusal for capacity is only final once nothing of this
 * engine is in flight that could still free room (a claim of its own that
 * may fail) and a fresh read of the feed agrees: the model then is exactly
 * the store's state.
 */
async function buildAuthoritatively(
  runtime: EngineRuntime,
  build: () => PlannedClaim,
): Promise<PlannedClaim> {
  for (;;) {
    try {
      return build();
    } catch (error) {
      if (!(error instanceof EngineError && error.kind === "insufficient_capacity")) throw error;
      const waited = await runtime.claimsSettled();
      await runtime.feedSync!.fresh();
      // Nothing was in flight here: the model now is the store's state, and this plan decides.
      if (!waited) return build();
    }
  }
}
