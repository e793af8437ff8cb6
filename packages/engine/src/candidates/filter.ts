/**
 * Feasibility filters: each has one reason to turn a member down and says
 * it (a Rejection). A filter is one of two kinds:
 *
 * - static: its verdict depends only on the request and the member's
 *   record, never on usage or time. The stack caches the members passing
 *   every static filter per request shape; the shape is derived from what
 *   the static filters declare they read (`reads.request`), and a member's
 *   record change empties the cache only when it touches a declared member
 *   field (`reads.member`). The filter sees views holding only the declared
 *   fields, so it cannot read anything the cache does not key on.
 * - usage: its verdict moves between placements (heartbeat age, capacity).
 *   It binds to the request once per placement and then answers for each
 *   member, with `admits` (the hot path, no rejection built) agreeing with
 *   `reject` (the explanation).
 *
 * Every filter also judges a member a path names directly (`?target=`,
 * restore, commit): see decide/named-member.ts.
 */

import type { PlacementRequest } from "../expand/request.js";
import type { MemberState } from "../model/member-state.js";
import type { MemberRecord } from "../store/records.js";
import type { Rejection } from "./rejection.js";
import type { KeyedField } from "./request-fields.js";

/** A member record field a static filter may declare (the name is always readable). */
export type MemberField = Exclude<keyof MemberRecord, "name">;

/** What a static filter sees of a member: its name and the declared record fields. */
export type StaticMember<M extends MemberField> = { readonly name: string } & {
  readonly [K in M]: MemberRecord[K];
};

/** What a filter sees of the request: the declared fields. */
export type RequestView<R extends keyof PlacementRequest> = { readonly [K in R]: PlacementRequest[K] };

/** The clock a usage filter judges by. */
export interface Timing {
  nowMs: number;
  offlineThresholdMs: number;
}

export interface StaticFilter<R extends KeyedField = KeyedField, M extends MemberField = MemberField> {
  readonly kind: "static";
  readonly name: string;
  readonly reads: { readonly request: readonly R[]; readonly member: readonly M[] };
  reject(member: StaticMember<M>, request: RequestView<R>): Rejection | undefined;
}

/**
 * A usage filter bound to one placement's request. Its verdict on a member
 * moves only when the member changes (MemberState notes every such change
 * in its model's journal), when time passes (`steadyUntil`), or, for the
 * members `movesAlone` names, at any time: what lets a decision's
 * explanation be kept in step instead of recomputed (decide/usage-verdicts.ts).
 */
export interface UsageCheck {
  /** `reject(member, time) === undefined`, without building the rejection. */
  admits(member: MemberState, time: Timing): boolean;
  reject(member: MemberState, time: Timing): Rejection | undefined;
  /**
   * The last instant (ms, the clock `time` reads) until which the verdict
   * given at `time` holds while the member does not change, as time moves
   * forward. Absent: time does not move it.
   */
  steadyUntil?(member: MemberState, time: Timing): number;
  /** True when the verdict on `member` may move without the member changing. Absent: never. */
  movesAlone?(member: MemberState): boolean;
}

export interface UsageFilter<R extends keyof PlacementRequest = keyof PlacementRequest> {
  readonly kind: "usage";
  readonly name: string;
  readonly reads: { readonly request: readonly R[] };
  /** Reads the request once per placement. */
  bind(request: RequestView<R>): UsageCheck;
}

export type FeasibilityFilter = StaticFilter | UsageFilter;

/** Every bound usage filter admits `member` (checked in stack order: online, then room, ...). */
export function admitsAll(checks: readonly UsageCheck[], member: MemberState, time: Timing): boolean {
  for (let index = 0; index < checks.length; index++) {
    if (!checks[index]!.admits(member, time)) return false;
  }
  return true;
}

/** Declares a static filter (the declared fields type its views). */
export function staticFilter<const R extends KeyedField, const M extends MemberField>(
  spec: Omit<StaticFilter<R, M>, "kind">,
): StaticFilter<R, M> {
  return { kind: "static", ...spec };
}

/** Declares a usage filter. */
export function usageFilter<const R extends keyof PlacementRequest>(
  spec: Omit<UsageFilter<R>, "kind">,
): UsageFilter<R> {
  return { kind: "usage", ...spec };
}
