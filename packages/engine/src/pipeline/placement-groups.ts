/**
 * Placement groups (spread/compact x strict/permissive). Strict rigor is a
 * feasibility filter; permissive rigor only reorders candidates, keeping the
 * default order (fewest instances, join order) among equals.
 */
import type { MemberState } from "../model/member-state.js";
import type { PlacementGroupRecord } from "../store/records.js";
import { type Rejection, rejection } from "./rejection.js";

export interface GroupPolicyResult {
  kept: MemberState[];
  rejected: { member: string; rejection: Rejection }[];
}

export function applyPlacementGroup(
  group: PlacementGroupRecord,
  counts: ReadonlyMap<string, number>,
  candidates: MemberState[],
): GroupPolicyResult {
  const countOf = (member: MemberState) => counts.get(member.name) ?? 0;
  const rejected: { member: string; rejection: Rejection }[] = [];
  let kept = candidates;
  if (group.rigor === "strict") {
    if (group.policy === "spread") {
      kept = candidates.filter((member) => {
        if (countOf(member) === 0) return true;
        rejected.push({
          member: member.name,
          rejection: rejection(
            `spread:${group.name}`,
            `already hosts an instance of placement group "${group.name}" (strict spread)`,
            `already host instances of placement group "${group.name}" (strict spread)`,
          ),
        });
        return false;
      });
    } else if ([...counts.values()].some((count) => count > 0)) {
      kept = candidates.filter((member) => {
        if (countOf(member) > 0) return true;
        rejected.push({
          member: member.name,
          rejection: rejection(
            `compact:${group.name}`,
            `does not host placement group "${group.name}" (strict compact)`,
            `do not host placement group "${group.name}" (strict compact)`,
          ),
        });
        return false;
      });
    }
  }
  // Array.prototype.sort is stable: equal group counts keep the default order.
  const direction = group.policy === "spread" ? 1 : -1;
  kept = [...kept].sort((a, b) => direction * (countOf(a) - countOf(b)));
  return { kept, rejected };
}
