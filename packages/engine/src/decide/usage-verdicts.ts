/**
 * The usage filters' verdicts (online, capacity) on every member of one
 * cached static candidate set, for one request shape (`usageKey`), kept in
 * step with the model so that explaining a decision does not walk every
 * member on every placement (ARCHITECTURE.md, "Explanations off the hot
 * path").
 *
 * A verdict moves only when its member changes, when time passes, or, for
 * a member with a provider tree, at any time (candidates/filter.ts,
 * UsageCheck). So a placement re-judges only:
 * - the members the model's journal names since the last explanation
 *   (a placement's own member, heartbeats, claims from other servers);
 * - the members whose verdict moves alone (provider trees; usually none);
 * and judges everyone again only when the journal no longer reaches back
 * that far, when some verdict's time is up (a member's heartbeat grew
 * older than the offline threshold), or when the clock or the threshold
 * moved in a way the verdicts did not allow for.
 *
 * The rejected members are kept per reason as bit sets over the set's
 * order, so the members a decision record names (the first few of each
 * reason, in walk order) are found without a walk.
 */
import { admitsAll, type Timing, type UsageCheck } from "../candidates/filter.js";
import type { Rejection } from "../candidates/rejection.js";
import type { ChangeJournal } from "../model/change-journal.js";
import type { MemberState } from "../model/member-state.js";
import { REJECTION_SAMPLE, type RejectionTally } from "./tally.js";

/** The members of a static candidate set rejected for one reason, as bits over the set's order. */
interface ReasonBits {
  bits: Uint32Array;
  count: number;
}

/** Every filter's first rejection of a member (the stack's `check`), asked only of members the usage checks turn down. */
export type Judge = (member: MemberState) => Rejection | undefined;

export class UsageVerdicts {
  /** Members the usage filters admit. */
  fitCount = 0;
  private readonly admitted: Uint8Array;
  /** Each member's first rejection (undefined when admitted). */
  private readonly why: (Rejection | undefined)[];
  private readonly reasons = new Map<string, ReasonBits>();
  /** Positions whose verdict moves without their member changing: re-judged on every update. */
  private readonly alone = new Set<number>();
  /** Journal position read up to; -1 before the first judging. */
  private read = -1;
  /** Every verdict holds until then while its member does not change. */
  private steadyUntilMs = Number.NEGATIVE_INFINITY;
  private lastNowMs = Number.POSITIVE_INFINITY;
  private thresholdMs = Number.NaN;

  /** `positions`: each member's index in `members`. */
  constructor(
    private readonly members: readonly MemberState[],
    private readonly positions: ReadonlyMap<MemberState, number>,
  ) {
    this.admitted = new Uint8Array(members.length);
    this.why = new Array<Rejection | undefined>(members.length).fill(undefined);
  }

  /** Brings every verdict up to `time`: re-judges what may have moved since the last update. */
  update(
    journal: ChangeJournal<MemberState>,
    checks: readonly UsageCheck[],
    judge: Judge,
    time: Timing,
  ): void {
    const timeKept =
      time.nowMs >= this.lastNowMs &&
      time.nowMs <= this.steadyUntilMs &&
      time.offlineThresholdMs === this.thresholdMs;
    // A member noted several times in a row (each class a placement holds, settles, commits)
    // is judged once: nothing changes while this pass runs.
    let last: MemberState | undefined;
    const rejudge = (member: MemberState) => {
      if (member === last) return;
      last = member;
      const position = this.positions.get(member);
      if (position !== undefined) this.judge(position, checks, judge, time);
    };
    if (!timeKept || this.read < 0 || !journal.since(this.read, rejudge)) {
      this.steadyUntilMs = Number.POSITIVE_INFINITY;
      for (let position = 0; position < this.members.length; position++) {
        this.judge(position, checks, judge, time);
      }
    } else {
      for (const position of this.alone) this.judge(position, checks, judge, time);
    }
    this.read = journal.end;
    this.lastNowMs = time.nowMs;
    this.thresholdMs = time.offlineThresholdMs;
  }

  /**
   * Adds the rejected members to `tally` as a walk over the set in order
   * would: reasons in the order first met, each with its count and its
   * first members.
   */
  addTo(tally: RejectionTally): void {
    const found: { first: number; count: number; names: string[] }[] = [];
    for (const reason of this.reasons.values()) {
      if (reason.count === 0) continue;
      const positions = firstSetBits(reason.bits, REJECTION_SAMPLE);
      found.push({
        first: positions[0]!,
        count: reason.count,
        names: positions.map((position) => this.members[position]!.name),
      });
    }
    found.sort((a, b) => a.first - b.first);
    for (const { first, count, names } of found) tally.addMany(this.why[first]!, count, names);
  }

  /** The members the usage filters admit, in the set's order. */
  fitting(): MemberState[] {
    // Sized up front (the count is kept): grown by push, the array costs more allocation.
    const fitting = new Array<MemberState>(this.fitCount);
    let count = 0;
    for (let position = 0; position < this.members.length; position++) {
      if (this.admitted[position] === 1) fitting[count++] = this.members[position]!;
    }
    return fitting;
  }

  private judge(position: number, checks: readonly UsageCheck[], judge: Judge, time: Timing): void {
    const member = this.members[position]!;
    const admits = admitsAll(checks, member, time);
    this.setVerdict(position, admits, admits ? undefined : judge(member));
    let movesAlone = false;
    for (const check of checks) {
      if (check.steadyUntil !== undefined) {
        this.steadyUntilMs = Math.min(this.steadyUntilMs, check.steadyUntil(member, time));
      }
      if (check.movesAlone?.(member) === true) movesAlone = true;
    }
    if (movesAlone) this.alone.add(position);
    else this.alone.delete(position);
  }

  private setVerdict(position: number, admits: boolean, why: Rejection | undefined): void {
    const wasAdmitted = this.admitted[position] === 1;
    if (wasAdmitted !== admits) {
      this.admitted[position] = admits ? 1 : 0;
      this.fitCount += admits ? 1 : -1;
    }
    const before = this.why[position];
    if (before?.code === why?.code) {
      this.why[position] = why;
      return;
    }
    const word = position >>> 5;
    const bit = 1 << (position & 31);
    if (before !== undefined) {
      const reason = this.reasons.get(before.code)!;
      reason.bits[word]! &= ~bit;
      reason.count -= 1;
    }
    if (why !== undefined) {
      let reason = this.reasons.get(why.code);
      if (reason === undefined) {
        reason = { bits: new Uint32Array((this.members.length + 31) >>> 5), count: 0 };
        this.reasons.set(why.code, reason);
      }
      reason.bits[word]! |= bit;
      reason.count += 1;
    }
    this.why[position] = why;
  }
}

/** The positions of the first `limit` set bits, lowest first. */
function firstSetBits(bits: Uint32Array, limit: number): number[] {
  const positions: number[] = [];
  for (let word = 0; word < bits.length && positions.length < limit; word++) {
    let rest = bits[word]!;
    while (rest !== 0 && positions.length < limit) {
      const lowest = rest & -rest;
      positions.push(word * 32 + 31 - Math.clz32(lowest));
      rest ^= lowest;
    }
  }
  return positions;
}
