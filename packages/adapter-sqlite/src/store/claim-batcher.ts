import { type Claim, type ClaimOutcome, type ClaimResult, isCreateOnly } from "@berth/engine";
import { applyClaim, applyCreateClaims, ClaimQueue, type QueuedClaim, settleClaims } from "@berth/sql-core";
import { translateDriverError } from "../connection/driver-errors.js";
import type { Connection } from "../connection/open-connection.js";
import { claimSide } from "./claim-reads.js";

/**
 * Group commit: claims submitted in the same turn of the event loop (or
 * while a write is waiting for the file's write lock) share ONE write
 * transaction, so a burst of concurrent placements pays for one BEGIN
 * IMMEDIATE and one COMMIT (the WAL append) instead of one each. Nothing else is shared:
 * every claim is validated against the store's own rows as they are at its
 * turn (earlier claims of the batch included), inside its own savepoint,
 * and fails on its own with its own typed error (capacity, name taken...)
 * while the others land. If the transaction itself fails (write lock not
 * obtained, commit failed), nothing of the batch was written and every
 * claim of it gets that error.
 */
export class ClaimBatcher {
  readonly #queue = new ClaimQueue();
  #flushQueued = false;

  constructor(private readonly connection: Connection) {}

  claim(claim: Claim): Promise<ClaimResult> {
    // A claim that sets member states (evacuation, restore: rare) moves the
    // change counter, so it takes a write of its own that says so (see
    // Connection.counterWrites); it is still one transaction.
    if ((claim.memberStates ?? []).length > 0) {
      return this.connection
        .write((raw) => applyClaim(claimSide(raw), claim))
        .catch((error: unknown) => {
          throw translateDriverError(error);
        });
    }
    const answer = this.#queue.add(claim);
    if (!this.#flushQueued) {
      this.#flushQueued = true;
      // The native driver is synchronous, so a transaction never waits on
      // I/O and, flushed at once, every batch would hold one claim. Waiting
      // for the event loop's check phase lets the requests whose data
      // arrived in the same poll phase submit their claims first.
      setImmediate(() => void this.#flush());
    }
    return answer;
  }

  /** Takes everything queued so far; claims arriving later start the next batch. */
  #take(): QueuedClaim[] {
    this.#flushQueued = false;
    return this.#queue.take();
  }

  async #flush(): Promise<void> {
    let batch: QueuedClaim[] | undefined;
    let outcomes: ClaimOutcome[];
    try {
      outcomes = await this.connection.write(async (raw) => {
        // Taken only once the write lock is ours: claims that queued while we waited ride along.
        batch = this.#take();
        // A batch of one needs no savepoint: if its claim fails, rolling the
        // whole transaction back is the same thing, two statements cheaper.
        if (batch.length === 1)
          return [{ ok: true, result: await applyClaim(claimSide(raw), batch[0]!.claim) }];
        const claims = batch.map((queued) => queued.claim);
        if (claims.every(isCreateOnly)) {
          await raw.run("SAVEPOINT batch");
          try {
            const results = await applyCreateClaims(claimSide(raw), claims);
            await raw.run("RELEASE batch");
            return results;
          } catch {
            // Not a claim's refusal (those are outcomes) but a failed
            // statement: undo it all and take the claims one by one below,
            // where such a failure stays with its own claim.
            await raw.run("ROLLBACK TO batch");
            await raw.run("RELEASE batch");
          }
        }
        const results: ClaimOutcome[] = [];
        for (const { claim } of batch) {
          await raw.run("SAVEPOINT claim");
          try {
            const result = await applyClaim(claimSide(raw), claim);
            await raw.run("RELEASE claim");
            results.push({ ok: true, result });
          } catch (error) {
            await raw.run("ROLLBACK TO claim");
            await raw.run("RELEASE claim");
            results.push({ ok: false, error: translateDriverError(error) });
          }
        }
        return results;
      });
    } catch (error) {
      for (const queued of batch ?? this.#take()) queued.reject(error);
      return;
    }
    settleClaims(batch ?? [], outcomes);
  }
}
