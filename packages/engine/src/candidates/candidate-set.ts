/**
 * What the stack answers for a placement: the candidates in rank order
 * and, when none is left, why each member was turned down; listed for the
 * decision step when it asked for every candidate.
 */
import type { ClusterModel } from "../model/cluster-model.js";
import type { MemberState } from "../model/member-state.js";
import type { ClusterMemberStateView, ClusterMemberView } from "../scriptlet/port.js";
import { memberView } from "../views/views.js";
import type { Timing } from "./filter.js";
import type { Rejection } from "./rejection.js";

export interface RejectedMember {
  member: string;
  rejection: Rejection;
}

export interface CandidateSet {
  candidates: MemberState[];
  /** Why each other member was turned down; filled only when no candidate is left. */
  rejected: RejectedMember[];
  /**
   * What the stack gathered in its walk over the candidates, so the
   * decision step need not walk them again; present when every candidate
   * was asked for (a set built by hand, such as a rebalance move's single
   * target, leaves it out).
   */
  listing?: CandidateListing;
}

export interface CandidateListing {
  /** The candidates' names, in order. */
  names: string[];
  /** The candidates as the scriptlet sees them, in order. */
  views: ClusterMemberView[];
  /** The candidate named `name`, if it is one. O(1); valid until the next set is listed on the same model. */
  candidate(name: string): MemberState | undefined;
  /** `candidate(name) !== undefined`. */
  isCandidate(name: string): boolean;
  /** The reported state of the candidate at `index` (what `get_cluster_member_state` of its name reads). */
  stateAt(index: number): ClusterMemberStateView;
}

/**
 * Candidate sets listed so far: each set's token. A number, not an object:
 * members live in the old generation, and a pointer from each of 10,000 of
 * them to a young token would be a write barrier and a remembered-set
 * entry apiece for the next scavenge.
 */
let listings = 0;

/** The state of a member that has not reported one (the scriptlet sees its fields' zero values). */
const NO_STATE: ClusterMemberStateView = Object.freeze({});

/**
 * Adds what the decision step reads of every candidate, gathered in one
 * walk: the names, the scriptlet views and an O(1) membership test. The
 * test marks the members (MemberState.candidacy) with a token of this set,
 * so it answers for the set most recently listed on the model: the
 * decision that follows it, before any other placement is planned.
 */
export function listed(
  model: ClusterModel,
  candidates: MemberState[],
  rejected: RejectedMember[],
  time: Timing,
): CandidateSet {
  // Wraps within the small-integer range (a member's stamp from a billion listings ago cannot matter).
  listings = listings >= 0x3fffffff ? 1 : listings + 1;
  const token = listings;
  const names = new Array<string>(candidates.length);
  const views = new Array<ClusterMemberView>(candidates.length);
  for (let index = 0; index < candidates.length; index++) {
    const member = candidates[index]!;
    names[index] = member.name;
    views[index] = memberView(member, time.nowMs, time.offlineThresholdMs);
    member.candidacy = token;
  }
  const candidate = (name: string): MemberState | undefined => {
    const member = model.member(name);
    return member?.candidacy === token ? member : undefined;
  };
  const isCandidate = (name: string): boolean => candidate(name) !== undefined;
  // Gathered for all candidates at the first request: a scriptlet that asks
  // for one state asks for all of them, and one tight loop overlaps the
  // cache misses of 10,000 records that one-by-one requests pay in turn.
  let states: ClusterMemberStateView[] | undefined;
  const stateAt = (index: number): ClusterMemberStateView => {
    if (states === undefined) {
      states = new Array<ClusterMemberStateView>(candidates.length);
      for (let at = 0; at < candidates.length; at++) {
        states[at] = (candidates[at]!.record.state ?? NO_STATE) as ClusterMemberStateView;
      }
    }
    return states[index] ?? NO_STATE;
  };
  return { candidates, rejected, listing: { names, views, candidate, isCandidate, stateAt } };
}
