/**
 * One placement plan at a time. A plan lists candidates, may wait for a
 * scriptlet (in a worker thread), then holds the chosen capacity in the
 * model; two plans interleaving there could both pick the last room on a
 * member. Plans queue here instead, first come first served, while the
 * event loop keeps serving everything else (reads, heartbeats, health).
 * The stores' capacity re-check at claim time stays the final gate.
 */
export class PlanLock {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `section` after every section queued before it has finished. */
  run<T>(section: () => Promise<T>): Promise<T> {
    const result = this.tail.then(section);
    // The next section waits for this one to settle, whatever its outcome.
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
