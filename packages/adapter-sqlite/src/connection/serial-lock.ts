/**
 * A first-come-first-served async lock. A local libSQL client here owns ONE
 * connection (so the per-connection pragmas below hold for every statement),
 * and a transaction keeps that connection across `await`s; everything else
 * that wants the connection queues here instead of failing with
 * "TRANSACTION_ACTIVE". Across processes, SQLite's own file lock serializes.
 */
export class SerialLock {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work, work);
    // The chain must survive a failed job, so the tail swallows its error;
    // the caller still sees it through `result`.
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
