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
    const entry = this.entries.get(rejection.code);
    if (entry === undefined) {
      this.entries.set(rejection.code, { rejection, count: 1, members: [member], order: this.entries.size });
      return;
    }
    entry.count += 1;
    if (entry.members.length < REJECTION_SAMPLE) entry.members.push(member);
  }

  /** An independent copy (a cached tally is the starting point of every placement's). */
  copy(): RejectionTally {
    return new RejectionTally(
      [...this.entries].map(([code, entry]) => [code, { ...entry, members: [...entry.members] }]),
    );
  }

  /** Most frequent first; equal counts in the order first seen. */
  groups(): RejectionGroup[] {
    return [...this.entries.values()]
      .sort((a, b) => b.count - a.count || a.order - b.order)
      .map(({ rejection, count, members }) => ({
        code: rejection.code,
        count,
        text: countedText(rejection, count),
        members,
        capacity: rejection.capacity,
      }));
  }
}
