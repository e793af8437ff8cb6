/**
 * Group commit for PostgreSQL: create-only claims submitted while a batch
 * transaction may not start yet share ONE transaction when it may
 * (batch-turns.ts says when: one at a time, a second beside a slow one, a
 * short pause while other servers write). A server under load thus commits
 * a few large batches instead of many small ones.
 *
 * The rows all of them touch are locked and read once (same fixed order as
 * a single claim), each claim is checked in turn by the engine's rules
 * against those rows plus the claims accepted before it (`foldClaim`: the
 * same checks, order and errors as alone), and the accepted ones are written
 * together (`combineClaims`) with one change-feed entry. Each claim still
 * fails on its own (capacity, name taken) while the others land. If the
 * transaction itself fails (a lock past its timeout, a lost connection),
 * nothing of the batch was written and every claim of it gets that error;
 * if a statement fails for another reason, the claims are retried one by
 * one, each in its own transaction, so such a failure stays with its claim.
 * Other claims (moves, removals, edits, member states) always run alone.
 */
import { type Claim, type ClaimOutcome, type ClaimResult, EngineError, isCreateOnly } from "@berth/engine";
import { applyClaim, applyCreateClaims, ClaimQueue, settleClaims } from "@berth/sql-core";
import { isCommitOutcomeUnknown } from "../connection/driver-errors.js";
import type { Pools } from "../connection/pools.js";
import { BatchTurns, type BatchTurnsOptions } from "./batch-turns.js";
import { claimSide } from "./claim-reads.js";
import { resolveLostCommit } from "./unknown-commit.js";

/**
 * When the next group commit of create claims may start (batch-turns.ts): the commit delay while
 * other servers write, and when a slow batch lets a second one start beside it.
 */
export type ClaimBatcherOptions = BatchTurnsOptions;

export class ClaimBatcher {
  readonly #queue = new ClaimQueue();
  readonly #turns: BatchTurns;

  constructor(
    private readonly pools: Pools,
    /** After a transaction that wrote something committed (wakes the other servers). */
    private readonly committed: () => void,
    /** Whether other servers wrote to the database lately (their notifications arrived). */
    othersWriting: () => boolean,
    options: ClaimBatcherOptions = {},
  ) {
    this.#turns = new BatchTurns(
      () => this.#queue.length > 0,
      () => this.#flush(),
      othersWriting,
      options,
    );
  }

  claim(claim: Claim): Promise<ClaimResult> {
    if (!isCreateOnly(claim)) return this.alone(claim);
    const answer = this.#queue.add(claim);
    this.#turns.poke();
    return answer;
  }

  private async alone(claim: Claim): Promise<ClaimResult> {
    const checked: { result?: ClaimResult } = {};
    let result: ClaimResult;
    try {
      result = await this.pools.writeTx((tx) =>
        applyClaim(claimSide(tx), claim, (outcome) => {
          checked.result = outcome;
        }),
      );
    } catch (error) {
      // COMMIT was sent (so the claim was checked) and the connection went: the log tells.
      if (checked.result === undefined) throw error;
      await resolveLostCommit(this.pools, error, claim.token);
      result = checked.result;
    }
    this.committed();
    return result;
  }

  /** One batch of every claim waiting; answers how many it held. */
  async #flush(): Promise<number> {
    const batch = this.#queue.take();
    if (batch.length === 1) {
      const [only] = batch;
      await this.alone(only!.claim).then(only!.resolve, only!.reject);
      return 1;
    }
    let outcomes: ClaimOutcome[];
    const checked: { outcomes?: ClaimOutcome[] } = {};
    try {
      outcomes = await this.pools.writeTx(async (tx) => {
        checked.outcomes = await applyCreateClaims(
          claimSide(tx),
          batch.map((queued) => queued.claim),
        );
        return checked.outcomes;
      });
    } catch (error) {
      if (isCommitOutcomeUnknown(error) && checked.outcomes !== undefined) {
        // COMMIT was sent and the connection went: the log tells (the accepted claims share one entry).
        const accepted = batch.find((_, index) => checked.outcomes![index]!.ok);
        try {
          // Nothing accepted, nothing written: the refusals stand whatever became of the COMMIT.
          if (accepted !== undefined) await resolveLostCommit(this.pools, error, accepted.claim.token);
        } catch (resolved) {
          for (const queued of batch) queued.reject(resolved);
          return batch.length;
        }
        outcomes = checked.outcomes;
      } else if (error instanceof EngineError) {
        // The transaction failed as a whole (busy, unavailable): none of the batch was written.
        for (const queued of batch) queued.reject(error);
        return batch.length;
      } else {
        // A failed statement: one by one, so it stays with the claim that caused it.
        await Promise.all(
          batch.map((queued) => this.alone(queued.claim).then(queued.resolve, queued.reject)),
        );
        return batch.length;
      }
    }
    if (outcomes.some((outcome) => outcome.ok)) this.committed();
    settleClaims(batch, outcomes);
    return batch.length;
  }
}
