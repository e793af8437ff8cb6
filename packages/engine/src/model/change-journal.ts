/**
 * Which members changed, in order: every change to what a usage filter
 * reads of a member (its record, inventories, consumption, provider tree)
 * appends the member here. A reader that keeps something per member in
 * step with the model (decide/usage-verdicts.ts) remembers how far it
 * has read and, next time, re-judges only the members appended since,
 * instead of walking every member.
 *
 * The journal keeps a bounded window: once it is full it forgets its older
 * half, and a reader that had not caught up with that half is told so
 * (`since` answers false) and rebuilds from the members themselves.
 */
/** Entries kept at most: far more than a reader that explains every placement falls behind by. */
const WINDOW = 4096;

/** Generic in what it records (the model records its `MemberState`s), so it imports none of them. */
export class ChangeJournal<Changed> {
  private entries: Changed[] = [];
  /** Position of `entries[0]` in the journal's whole history. */
  private base = 0;

  /** Position just past the last change: where a reader that is up to date stands. */
  get end(): number {
    return this.base + this.entries.length;
  }

  note(member: Changed): void {
    if (this.entries.length >= WINDOW) {
      // Dropping half at a time keeps a note O(1) amortized and the recent past readable.
      const dropped = WINDOW / 2;
      this.entries.splice(0, dropped);
      this.base += dropped;
    }
    this.entries.push(member);
  }

  /**
   * Calls `visit` with every member changed from position `from` on (a
   * member changed twice comes twice). False, visiting nobody, when the
   * journal no longer reaches back to `from`.
   */
  since(from: number, visit: (member: Changed) => void): boolean {
    if (from < this.base || from > this.end) return false;
    const entries = this.entries;
    for (let index = from - this.base; index < entries.length; index++) visit(entries[index]!);
    return true;
  }
}
