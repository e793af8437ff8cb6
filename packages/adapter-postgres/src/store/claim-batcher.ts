/**
 * Group commit for PostgreSQL: create-only claims submitted in the same
 * turn of the event loop (concurrent placements) share ONE transaction, and
 * one such transaction runs at a time: claims that arrive meanwhile wait
 * and go together in the next one. A server under load thus commits a few
 * large batches instead of many small ones (each transaction costs round
 * trips, the planning of its statements' executions, a commit, a
 * change-feed entry that every server reads, and a notification). A second
 * batch starts beside the first only once the first has run
 * `SLOW_BATCH_MS`: it is then waiting (a row lock another server holds, a
 * database that stalls), and the creates that queued behind it need not
 * wait too when they touch other rows. With two at once, batches held half
 * the creates a server had in flight, and with three servers on one
 * database (a third of the load each) a batch was ~6 creates against ~9
 * one at a time; the bench's database CPU per create fell by a fifth.
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
import {
  type CheckedClaim,
  type Claim,
  type ClaimResult,
  type ClaimRows,
  checkClaim,
  claimReads,
  claimResultOf,
  combineClaims,
  EngineError,
  foldClaim,
  type InstanceRecord,
  projectTotalsToRead,
  providersToRead,
} from "@berth/engine";
import type { Pools, Tx } from "../connection/pools.js";
import { applyClaim } from "./claim.js";
import { lockAndReadMembers, readProjectTotals } from "./claim-reads.js";
import { writeClaim } from "./claim-writes.js";

type Outcome = { ok: true; result: ClaimResult } | { ok: false; error: unknown };

interface QueuedClaim {
  claim: Claim;
  resolve(result: ClaimResult): void;
  reject(error: unknown): void;
}

const NO_INSTANCES: ReadonlyMap<string, InstanceRecord> = new Map();

/** Batch transactions of one store running at once, at most (see above). */
export const MAX_BATCHES_RUNNING = 2;
/** A batch running this long is waiting on something: the next may start beside it (see above). */
export const SLOW_BATCH_MS = 50;

function isCreateOnly(claim: Claim): boolean {
  return (
    (claim.remove ?? []).length === 0 &&
    (claim.replace ?? []).length === 0 &&
    (claim.memberStates ?? []).length === 0
  );
}

async function applyCreateClaims(tx: Tx, claims: Claim[]): Promise<Outcome[]> {
  const all: Claim = { create: claims.flatMap((claim) => claim.create ?? []) };
  const { existing, providers, memberIds } = await lockAndReadMembers(
    tx,
    all,
    claimReads(all),
    providersToRead(all, NO_INSTANCES),
  );
  const projectTotals = await readProjectTotals(tx, [
    ...new Set(claims.flatMap((claim) => projectTotalsToRead(claim, NO_INSTANCES))),
  ]);
  const rows: ClaimRows = { instances: new Map(), ...existing, providers, projectTotals };
  const accepted: CheckedClaim[] = [];
  const outcomes: Outcome[] = [];
  for (const claim of claims) {
    try {
      const checked = checkClaim(claim, rows);
      foldClaim(rows, checked);
      accepted.push(checked);
      outcomes.push({ ok: true, result: claimResultOf(checked) });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  if (accepted.length > 0) await writeClaim(tx, combineClaims(accepted), memberIds);
  return outcomes;
}

export interface ClaimBatcherOptions {
  /** At most this many batch transactions at once. Default `MAX_BATCHES_RUNNING`. */
  maxRunning?: number;
  /** A batch starts beside a running one only once that one has run this long (ms). Default `SLOW_BATCH_MS`. */
  slowBatchMs?: number;
}

export class ClaimBatcher {
  #queue: QueuedClaim[] = [];
  #flushQueued = false;
  /** When each batch transaction running now started (performance.now()), by batch number. */
  readonly #running = new Map<number, number>();
  #batches = 0;
  /** Wakes #schedule when the oldest running batch turns slow. */
  #slowTimer: NodeJS.Timeout | undefined;
  readonly #maxRunning: number;
  readonly #slowBatchMs: number;

  constructor(
    private readonly pools: Pools,
    /** After a transaction that wrote something committed (wakes the other servers). */
    private readonly committed: () => void,
    options: ClaimBatcherOptions = {},
  ) {
    this.#maxRunning = options.maxRunning ?? MAX_BATCHES_RUNNING;
    this.#slowBatchMs = options.slowBatchMs ?? SLOW_BATCH_MS;
  }

  claim(claim: Claim): Promise<ClaimResult> {
    if (!isCreateOnly(claim)) return this.alone(claim);
    return new Promise<ClaimResult>((resolve, reject) => {
      this.#queue.push({ claim, resolve, reject });
      this.#schedule();
    });
  }

  /** Starts the next batch if one may start now, else makes sure #schedule runs again when one may. */
  #schedule(): void {
    if (this.#flushQueued || this.#queue.length === 0 || this.#running.size >= this.#maxRunning) return;
    if (this.#running.size > 0) {
      const waitMs = Math.min(...this.#running.values()) + this.#slowBatchMs - performance.now();
      if (waitMs > 0) {
        this.#slowTimer ??= setTimeout(() => {
          this.#slowTimer = undefined;
          this.#schedule();
        }, waitMs);
        return;
      }
    }
    this.#flushQueued = true;
    // The requests whose data arrived in the same poll phase submit their claims first.
    setImmediate(() => {
      this.#flushQueued = false;
      if (this.#running.size >= this.#maxRunning) return;
      const batch = ++this.#batches;
      this.#running.set(batch, performance.now());
      void this.#flush().finally(() => {
        this.#running.delete(batch);
        if (this.#running.size === 0 && this.#slowTimer !== undefined) {
          clearTimeout(this.#slowTimer);
          this.#slowTimer = undefined;
        }
        this.#schedule();
      });
    });
  }

  private async alone(claim: Claim): Promise<ClaimResult> {
    const result = await this.pools.writeTx((tx) => applyClaim(tx, claim));
    this.committed();
    return result;
  }

  async #flush(): Promise<void> {
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 1) {
      const [only] = batch;
      await this.alone(only!.claim).then(only!.resolve, only!.reject);
      return;
    }
    let outcomes: Outcome[];
    try {
      outcomes = await this.pools.writeTx((tx) =>
        applyCreateClaims(
          tx,
          batch.map((queued) => queued.claim),
        ),
      );
    } catch (error) {
      if (error instanceof EngineError) {
        // The transaction failed as a whole (busy, unavailable): none of the batch was written.
        for (const queued of batch) queued.reject(error);
        return;
      }
      // A failed statement: one by one, so it stays with the claim that caused it.
      await Promise.all(batch.map((queued) => this.alone(queued.claim).then(queued.resolve, queued.reject)));
      return;
    }
    if (outcomes.some((outcome) => outcome.ok)) this.committed();
    batch.forEach((queued, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) queued.resolve(outcome.result);
      else queued.reject(outcome.error);
    });
  }
}
