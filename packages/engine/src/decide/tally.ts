/**
 * Rejected members counted by reason, keeping only the first few names of
 * each: a decision record stays the same size at 10,000 members as at 10.
 */
import { countedText, type Rejection } from "../candidates/rejection.js";
import type { RejectionGroup } from "../store/records.js";

/** Members named per reason in a decision record. */
export const REJECTION_SAMPLE = 5;

interface Entry {
  rejection: Rejection;
  count: number;
  members: string[];
  /** First-seen order, the tie-break between equal counts. */
  order: number;
}

export class RejectionTally {
  private readonly entries: Map<string, Entry>;

  constructor(entries: Iterable<[string, Entry]> = []) {
    this.entries = new Map(entries);
  }

  add(member: string, rejection: Rejection): void {
    this.addMany(rejection, 1, [member]);
  }

  /** `count` members turned down for `rejection`, the first of them `members` (as many `add`s would). */
  addMany(rejection: Rejection, count: number, members: readonly string[]): void {
    let entry = this.entries.get(rejection.code);
    if (entry === undefined) {
      entry = { rejection, count: 0, members: [], order: this.entries.size };
      this.entries.set(rejection.code, entry);
    }
    entry.count += count;
    for (const member of members) {
      if (entry.members.length >= REJECTION_SAMPLE) break;
      entry.members.push(member);
    }
  }

  /** An independent copy (a cached tally is the starting point of every placement's). */
  copy(): RejectionTally {
    return new RejectionTally(
      [...this.entries].map(([code, entry]) => [code, { ...entry, members: [...entry.members] }]),
    );
  }

  /** Most frequent first; equal counts in the order first seen (fresh lists: a cached tally is read too). */
  groups(): RejectionGroup[] {
    if (this.entries.size === 0) return [];
    return [...this.entries.values()]
      .sort((a, b) => b.count - a.count || a.order - b.order)
      .map(({ rejection, count, members }) => ({
        code: rejection.code,
        count,
        text: countedText(rejection, count),
        members: [...members],
        capacity: rejection.capacity,
      }));
  }
}
