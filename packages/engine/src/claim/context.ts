import type { Clock } from "../base/clock.js";
import type { Logger } from "../base/logger.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type { ClaimEffect } from "../store/change-feed.js";
import type { Claim, ClaimResult, Store } from "../store/port.js";

/** The model as a claim holds, settles and refreshes capacity in it. */
export type ClaimModel = Pick<
  ClusterModel,
  | "member"
  | "addPending"
  | "releasePending"
  | "settlePending"
  | "setUsage"
  | "upsertMember"
  | "removeMember"
  | "countInstance"
>;

/** How a claim follows a store's change feed (runtime/feed-sync.ts). */
export interface ClaimFeed {
  /** Entries of other writers applied so far: moves when a read brought something new. */
  readonly applied: number;
  /** A token for the next claim (`Claim.token`). */
  newToken(): string;
  /** An own claim committed: its effect into the model and its placements settled, in one step. */
  applyOwnClaim(token: string, effect: ClaimEffect, settle: () => void): void;
  /** A read of the feed that starts after this call. */
  fresh(): Promise<void>;
}

/**
 * What the claim step reads and drives (claim.ts): the model it holds
 * capacity in, the clock, the store's answers after a lost race, the
 * change feed, the one-plan-at-a-time lock and the store's claim as the
 * runtime runs it (counted in flight). The engine's runtime satisfies it;
 * the step takes this narrow port so claiming never depends on the runtime.
 */
export interface ClaimContext {
  readonly model: ClaimModel;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly store: Pick<Store, "getMember" | "memberUsage">;
  /** With a change feed: how the model follows it; undefined without one. */
  readonly feedSync: ClaimFeed | undefined;
  /** Lost races, for the metrics endpoint. */
  readonly metrics: { claimRetries: number };
  /** Plans run one at a time (runtime/plan-lock.ts). */
  readonly planLock: { run<T>(section: () => T | Promise<T>): T | Promise<T> };
  /** Gives members their child providers when those changed (a re-plan may follow a feed read); undefined: nothing to do. */
  syncTrees(): Promise<void> | undefined;
  /** The store's claim, counted in flight; `committed` runs with its answer before anything else sees it. */
  runClaim(claim: Claim, committed: (result: ClaimResult) => void): Promise<ClaimResult>;
  /** Waits for this engine's claims in flight; false when there were none. */
  claimsSettled(): Promise<boolean>;
}
