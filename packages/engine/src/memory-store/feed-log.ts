/**
 * The memory store's change feed (store/change-feed.ts): every entry ever
 * written, a cursor being an index into it, and the listeners of its
 * committed writes (`Store.onCommittedWrite`). A memory store commits a
 * write within one synchronous run (its writes never await half-way), so
 * the entries appended until that run ends are one write's: they are told
 * once, in a microtask, which runs before the writer's `await` returns.
 */

import type { ChangeEntry } from "../store/change-feed.js";
import { CommittedWrites } from "../store/committed-writes.js";
import type { CommittedWriteListener } from "../store/port.js";

const ANNOUNCED_SOON = Promise.resolve();

export class FeedLog {
  private readonly entries: ChangeEntry[] = [];
  /** Entries of the write being committed, not told yet. */
  private unannounced: ChangeEntry[] | null = null;
  private readonly writes = new CommittedWrites();

  get length(): number {
    return this.entries.length;
  }

  push(entry: ChangeEntry): void {
    this.entries.push(entry);
    if (this.unannounced === null) {
      const written: ChangeEntry[] = [];
      this.unannounced = written;
      // A resolved promise's `then`, not Node's queueMicrotask: the same microtask queue without
      // an AsyncResource made and entered per write (a visible share of one in-process claim).
      ANNOUNCED_SOON.then(() => {
        this.unannounced = null;
        this.writes.committed(written);
      });
    }
    this.unannounced.push(entry);
  }

  /** The entries from index `from` on. */
  slice(from: number): ChangeEntry[] {
    return this.entries.slice(from);
  }

  listen(listener: CommittedWriteListener): () => void {
    return this.writes.listen(listener);
  }
}
