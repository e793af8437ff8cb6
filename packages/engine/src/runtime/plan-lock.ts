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
  /** Sections queued or running; 0: the lock is free. */
  private held = 0;

  /**
   * Runs `section` after every section queued before it has finished. With
   * none queued it starts at once, and one that finishes synchronously (a
   * default-policy plan) never holds the lock, nothing can interleave it:
   * its value (or its throw) is then the answer, with no promise.
   */
  run<T>(section: () => T | Promise<T>): T | Promise<T> {
    if (this.held > 0) return this.hold(this.tail.then(section));
    const value = section();
    return value instanceof Promise ? this.hold(value) : value;
  }

  /** The next section waits for `result` to settle, whatever its outcome. */
  private hold<T>(result: Promise<T>): Promise<T> {
    this.held += 1;
    const release = () => {
      this.held -= 1;
    };
    this.tail = result.then(release, release);
    return result;
  }
}
