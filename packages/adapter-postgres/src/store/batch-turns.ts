/**
 * When the group commit's next batch transaction may start
 * (claim-batcher.ts). Every transaction costs the same round trips, the
 * executor's set-up of its statements, a commit (an fsync), a change-feed
 * entry every server reads and a notification, whatever it holds: the
 * fewer and larger the batches, the less each create costs the database
 * and the server. So:
 *  - one batch at a time: claims that arrive while it runs wait and go
 *    together in the next one. (Two at once left each batch about half the
 *    creates a server had in flight.)
 *  - a second batch starts beside the first only once the first has run
 *    `SLOW_BATCH_MS`: it is then waiting (a row lock another server holds,
 *    a database that stalls), and the claims queued behind it need not wait
 *    too when they touch other rows. Never more than `MAX_BATCHES_RUNNING`.
 *  - the commit delay: while other servers write to the same database, a
 *    batch of at least `DELAYED_BATCH_MIN` creates is followed by a pause of
 *    `COMMIT_DELAY_MS` before the next starts, so the creates its answers
 *    bring back (and others) share the next transaction. Alone on a database
 *    a server never pauses: it has the database to itself between its
 *    batches, and a pause would only leave it idle (one berthd at 64
 *    connections did ~10 % fewer creates/s with it). Several servers share
 *    the database and each sees a part of the load, so its batches are
 *    smaller and every create costs more of the shared database and CPU:
 *    with three servers on two cores, a 2 ms pause took batches from 11 to
 *    18 creates and creates/s up 6-22 % (PostgreSQL's `commit_delay` and
 *    `commit_siblings` make the same trade for its WAL flushes).
 */

/** Batch transactions running at once, at most. */
export const MAX_BATCHES_RUNNING = 2;
/** A batch running this long is waiting on something: the next may start beside it. */
export const SLOW_BATCH_MS = 50;
/** The pause after a batch while other servers write (ms; 0: never). */
export const COMMIT_DELAY_MS = 2;
/** Batches smaller than this are followed by no pause (a server that is not busy answers at once). */
export const DELAYED_BATCH_MIN = 4;

export interface BatchTurnsOptions {
  /** At most this many batch transactions at once. Default `MAX_BATCHES_RUNNING`. */
  maxRunning?: number;
  /** A batch starts beside a running one only once that one has run this long (ms). Default `SLOW_BATCH_MS`. */
  slowBatchMs?: number;
  /** The pause after a batch of `DELAYED_BATCH_MIN` or more while other servers write (ms). Default `COMMIT_DELAY_MS`. */
  commitDelayMs?: number;
}

export class BatchTurns {
  /** When each batch running now started (performance.now()), by batch number. */
  readonly #running = new Map<number, number>();
  #batches = 0;
  #startQueued = false;
  /** No batch starts before this (performance.now()): a commit delay. */
  #pausedUntil = 0;
  /** Calls `poke` when the oldest running batch turns slow, or a pause ends. */
  #timer: NodeJS.Timeout | undefined;
  readonly #maxRunning: number;
  readonly #slowBatchMs: number;
  readonly #commitDelayMs: number;

  constructor(
    /** Whether any claim waits for a batch. */
    private readonly hasWork: () => boolean,
    /** Runs one batch of everything waiting; answers how many claims it held. */
    private readonly runBatch: () => Promise<number>,
    /** Whether other servers wrote to the database lately. */
    private readonly othersWriting: () => boolean,
    options: BatchTurnsOptions = {},
  ) {
    this.#maxRunning = options.maxRunning ?? MAX_BATCHES_RUNNING;
    this.#slowBatchMs = options.slowBatchMs ?? SLOW_BATCH_MS;
    this.#commitDelayMs = options.commitDelayMs ?? COMMIT_DELAY_MS;
  }

  /** Claims are waiting: starts a batch if one may start now, else makes sure one starts when it may. */
  poke(): void {
    if (this.#startQueued || !this.hasWork() || this.#running.size >= this.#maxRunning) return;
    const now = performance.now();
    const waitMs =
      this.#running.size > 0
        ? Math.min(...this.#running.values()) + this.#slowBatchMs - now
        : this.#pausedUntil - now;
    if (waitMs > 0) {
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        this.poke();
      }, waitMs);
      return;
    }
    this.#startQueued = true;
    // The requests whose data arrived in the same poll phase submit their claims first.
    setImmediate(() => {
      this.#startQueued = false;
      if (this.#running.size >= this.#maxRunning || !this.hasWork()) return;
      const batch = ++this.#batches;
      this.#running.set(batch, performance.now());
      void this.runBatch().then(
        (size) => this.finished(batch, size),
        () => this.finished(batch, 0),
      );
    });
  }

  private finished(batch: number, size: number): void {
    this.#running.delete(batch);
    if (this.#running.size === 0 && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#commitDelayMs > 0 && size >= DELAYED_BATCH_MIN && this.othersWriting())
      this.#pausedUntil = performance.now() + this.#commitDelayMs;
    this.poke();
  }
}
