/**
 * The listeners of a store's committed writes (`Store.onCommittedWrite`):
 * every Store keeps one and tells it, after each commit, what the
 * transaction appended to the change feed.
 */
import type { ChangeEntry } from "./change-feed.js";
import type { CommittedWriteListener } from "./port.js";

/** The listeners of a Store's committed writes (see the file's comment). */
export class CommittedWrites {
  private readonly listeners = new Set<CommittedWriteListener>();

  /** `Store.onCommittedWrite`: answers the function that stops the calls. */
  listen(listener: CommittedWriteListener): () => void {
    // A wrapper of its own, so the same function listening twice is told twice and stopped once each.
    const own: CommittedWriteListener = (entries) => listener(entries);
    this.listeners.add(own);
    return () => this.listeners.delete(own);
  }

  /** A transaction committed having appended `entries` (none: nothing to tell). */
  committed(entries: readonly ChangeEntry[]): void {
    if (entries.length === 0) return;
    for (const listener of this.listeners) listener(entries);
  }
}
