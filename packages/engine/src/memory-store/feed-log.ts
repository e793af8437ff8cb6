/**
 * The memory store's change feed (store/change-feed.ts): the newest entries
 * written, a cursor being the count of entries ever written before it, and
 * the listeners of its committed writes (`Store.onCommittedWrite`). A memory
 * store commits a write within one synchronous run (its writes never await
 * half-way), so the entries appended until that run ends are one write's:
 * they are told once, in a microtask, which runs before the writer's `await`
 * returns.
 *
 * Old entries go once the log carries more than `weightKept` (an entry
 * weighs 1 plus the counted changes and usage rows its effect carries), as
 * the SQL stores prune theirs after a retention time: a reader whose cursor
 * is older than the oldest entry kept is told to re-hydrate (`reset`). The
 * entries of the last write are always kept, so an engine reading right
 * after a write (every engine sharing this store does, before its next
 * plan) never has to. Without the bound, every placement of a long-lived
 * store stayed in the heap: ~100 bytes per instance created, ~100 MB after
 * a million, which every full garbage collection then had to mark.
 */

import type { ChangeEntry, FeedRead } from "../store/change-feed.js";
import { CommittedWrites } from "../store/committed-writes.js";
import type { CommittedWriteListener } from "../store/port.js";

const ANNOUNCED_SOON = Promise.resolve();

/**
 * What the log keeps by default: 100,000 weight units, a few MB (the
 * effects of ~30,000 single creates, or of the last bulk claim of any size).
 */
export const DEFAULT_FEED_WEIGHT_KEPT = 100_000;

function weightOf(entry: ChangeEntry): number {
  if (entry.kind !== "claim" && entry.kind !== "consumers") return 1;
  return 1 + entry.effect.instances.length + entry.effect.usage.length;
}

export class FeedLog {
  /** Kept entries: `entries[first]` onward; the ones before `first` are dropped, awaiting compaction. */
  private entries: ChangeEntry[] = [];
  private first = 0;
  /** Entries dropped for good (the cursor of `entries[first]`). */
  private dropped = 0;
  private weight = 0;
  /** Entries of the write being committed, not told yet. */
  private unannounced: ChangeEntry[] | null = null;
  private readonly writes = new CommittedWrites();

  constructor(private readonly weightKept = DEFAULT_FEED_WEIGHT_KEPT) {}

  /** The cursor after the newest entry: how many entries were ever written. */
  get head(): number {
    return this.dropped + this.entries.length - this.first;
  }

  push(entry: ChangeEntry): void {
    this.entries.push(entry);
    this.weight += weightOf(entry);
    if (this.unannounced === null) {
      const written: ChangeEntry[] = [];
      this.unannounced = written;
      // A resolved promise's `then`, not Node's queueMicrotask: the same microtask queue without
      // an AsyncResource made and entered per write (a visible share of one in-process claim).
      ANNOUNCED_SOON.then(() => {
        this.unannounced = null;
        this.dropBeyond(written.length);
        this.writes.committed(written);
      });
    }
    this.unannounced.push(entry);
  }

  /** Everything after cursor `from`, or a reset when entries after it were dropped. */
  read(from: number): FeedRead {
    const head = this.head;
    if (from < this.dropped) return { entries: [], cursor: String(head), reset: true };
    return { entries: this.entries.slice(this.first + from - this.dropped), cursor: String(head) };
  }

  listen(listener: CommittedWriteListener): () => void {
    return this.writes.listen(listener);
  }

  /** Drops the oldest entries while the log weighs more than it keeps, never the newest `keep`. */
  private dropBeyond(keep: number): void {
    if (this.weight <= this.weightKept) return;
    const last = this.entries.length - keep;
    while (this.weight > this.weightKept && this.first < last) {
      this.weight -= weightOf(this.entries[this.first]!);
      this.first += 1;
      this.dropped += 1;
    }
    // Shifting one at a time would copy the array per drop: cut the dropped prefix off in one go
    // once it is half the array.
    if (this.first * 2 >= this.entries.length) {
      this.entries = this.entries.slice(this.first);
      this.first = 0;
    }
  }
}
