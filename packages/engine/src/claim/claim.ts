/**
 * Step 5: claim through the store. Each attempt plans into a fresh draft
 * (draft.ts), holding capacity in the model as in-flight placements while
 * the claim runs (so other placements in this process see it); the store
 * re-checks against its own usage. A lost race (another process took the
 * room) refreshes the model's view of the member concerned and re-plans,
 * a bounded number of times: it never overcommits. What an attempt
 * plans is a named step: placements decided by step 4 (placements.ts) or
 * edits of stored instances (edits.ts).
 */

import { EngineError, unavailable } from "../base/errors.js";
import type { ClaimFailureDetails, ClaimResult } from "../store/port.js";
import type { ClaimContext } from "./context.js";
import { ClaimDraft } from "./draft.js";

/** What one attempt writes, planned afresh into each attempt's draft (a lost race re-plans). */
export interface ClaimPlan {
  planInto(draft: ClaimDraft): void | Promise<void>;
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
function settleAll(context: ClaimContext, draft: ClaimDraft, result: ClaimResult): void {
  const { pendings } = draft;
  const inPlace =
    draft.previous.length === 0 &&
    result.instances.length === pendings.length &&
    pendings.every((pending, index) => result.instances[index]?.location === pending.member);
  if (inPlace) for (const pending of pendings) context.model.settlePending(pending);
  else draft.release();
}

/** The maintenance states a committed claim set (evacuation, restore), in the model at once. */
function applyMemberStates(context: ClaimContext, draft: ClaimDraft): void {
  for (const { member, evacuated } of draft.claim.memberStates ?? []) {
    const state = context.model.member(member);
    if (state !== undefined && state.record.evacuated !== evacuated)
      context.model.upsertMember({ ...state.record, evacuated });
  }
}

/** Brings the model in line with the store after a claim succeeded (a store without a change feed). */
export function applyClaim(context: ClaimContext, draft: ClaimDraft, result: ClaimResult): void {
  context.model.setUsage(result.usage);
  applyMemberStates(context, draft);
  for (const old of draft.previous) context.model.countInstance(old, -1);
  for (const stored of result.instances) context.model.countInstance(stored, 1);
}

/** After a lost race: re-read what the store knows about the member that refused. */
async function refreshAfterLoss(context: ClaimContext, error: unknown): Promise<void> {
  const failure = failureOf(error);
  if (failure === undefined) return;
  if ("member" in failure) {
    const member = failure.member;
    const record = await context.store.getMember(member);
    if (record === undefined) context.model.removeMember(member);
    else {
      context.model.upsertMember(record);
      context.model.setUsage(await context.store.memberUsage([member]));
    }
  }
}

/** Attempts per placement with a change feed: every lost race means another claim committed. */
const FEED_ATTEMPTS = 50;

/**
 * Plans an attempt into a fresh draft (the candidates and decide steps,
 * holding capacity; one plan at a time), claims it, and re-plans after a lost
 * race, at most `attempts` times. `plan.planInto` throws when nothing fits; what it
 * held by then is released.
 *
 * With a change feed (several engines on one store) the model is brought up
 * to date from the feed instead: after a lost race (someone else's claim
 * committed, so there is something to read), and before a "no capacity"
 * answer, which is only given once this engine's own claims in flight have
 * settled and a fresh read of the feed still leaves no room. A successful
 * claim's effect goes into the model as it commits, and its in-flight
 * placements are released in the same step (runtime/feed-sync.ts
 * `applyOwnClaim`); no read is needed for it.
 */
export async function claimWithRetries(
  context: ClaimContext,
  attempts: number,
  plan: ClaimPlan,
): Promise<{ result: ClaimResult; draft: ClaimDraft; attempts: number }> {
  const feed = context.feedSync;
  const maxAttempts = feed === undefined ? attempts : Math.max(attempts, FEED_ATTEMPTS);
  for (let attempt = 1; ; attempt++) {
    // Awaited only when planning waited (a scriptlet, a tree rebuild, the lock): one hop fewer otherwise.
    const planning = feed === undefined ? planDraft(context, plan) : planAuthoritatively(context, plan);
    const draft = planning instanceof Promise ? await planning : planning;
    const appliedBefore = feed?.applied ?? 0;
    if (feed !== undefined) draft.claim.token = feed.newToken();
    let result: ClaimResult;
    try {
      result = await context.runClaim(draft.claim, (committed) => {
        if (feed === undefined) {
          settleAll(context, draft, committed);
          applyClaim(context, draft, committed);
          return;
        }
        // The claim's effect is in the model, and its placements released, before anyone reads it.
        feed.applyOwnClaim(draft.claim.token!, committed.effect, () => settleAll(context, draft, committed));
        applyMemberStates(context, draft);
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
      context.logger.log("debug", "claim lost a race; re-planning", {
        attempt,
        error: error instanceof Error ? error.message : String(error),
      });
      context.metrics.claimRetries += 1;
      if (feed === undefined) await refreshAfterLoss(context, error);
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
 * planning fails. Without a scriptlet and with the trees current, the
 * section finishes synchronously (no promise hop inside the lock).
 */
function planDraft(context: ClaimContext, plan: ClaimPlan): ClaimDraft | Promise<ClaimDraft> {
  return context.planLock.run(() => {
    // A re-plan after a lost race may follow a feed read that changed the providers.
    const trees = context.syncTrees();
    return trees === undefined ? draftOf(context, plan) : trees.then(() => draftOf(context, plan));
  });
}

/** `plan` planned into a fresh draft, released if planning fails. */
function draftOf(context: ClaimContext, plan: ClaimPlan): ClaimDraft | Promise<ClaimDraft> {
  const draft = new ClaimDraft(context);
  let planned: void | Promise<void>;
  try {
    planned = plan.planInto(draft);
  } catch (error) {
    draft.release();
    throw error;
  }
  if (planned === undefined) return draft;
  return planned.then(
    () => draft,
    (error: unknown) => {
      draft.release();
      throw error;
    },
  );
}

/**
 * `planDraft`, but a refusal for capacity is only final once nothing of
 * this engine is in flight that could still free room (a claim of its own
 * that may fail) and a fresh read of the feed agrees: the model then is
 * exactly the store's state.
 */
function planAuthoritatively(context: ClaimContext, plan: ClaimPlan): ClaimDraft | Promise<ClaimDraft> {
  let planning: ClaimDraft | Promise<ClaimDraft>;
  try {
    planning = planDraft(context, plan);
  } catch (error) {
    return afterRefusal(context, plan, error);
  }
  return planning instanceof Promise
    ? planning.catch((error: unknown) => afterRefusal(context, plan, error))
    : planning;
}

/**
 * A refused plan: anything but a capacity refusal stands; that one is
 * planned again once this engine's claims in flight settled and the feed
 * was read, and stands if nothing was in flight.
 */
async function afterRefusal(context: ClaimContext, plan: ClaimPlan, error: unknown): Promise<ClaimDraft> {
  if (!(error instanceof EngineError && error.kind === "insufficient_capacity")) throw error;
  const waited = await context.claimsSettled();
  await context.feedSync!.fresh();
  // Nothing was in flight here: the model now is the store's state, and this plan decides.
  if (!waited) return planDraft(context, plan);
  return planAuthoritatively(context, plan);
}
