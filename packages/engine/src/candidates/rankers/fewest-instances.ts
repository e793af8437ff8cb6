/**
 * The default policy of LXD/Incus: fewest instances first (reservations and
 * in-flight placements included), ties in join order (or the stack's
 * seeded tie order: stack.ts, "Tie order"). Loads only grow
 * while the model's load epoch stays (every shrink moves it), which lets
 * the stack pick the first candidate without scanning.
 */
import type { MemberState } from "../../model/member-state.js";
import { orderByKeys } from "../order.js";
import type { Ranker } from "../ranker.js";

const byLoad = (member: MemberState): number => member.load;

export const fewestInstancesRanker: Ranker = {
  name: "fewest instances",
  rank: (_request, model) => ({ key: byLoad, growsOnlyAtEpoch: model.loadEpoch }),
};

/** Members (in join order) in the default policy's order. */
export function orderByLoad(inJoinOrder: readonly MemberState[]): MemberState[] {
  // Float64Array like every other caller of orderByKeys, so its reads stay monomorphic.
  return orderByKeys(inJoinOrder, Float64Array.from(inJoinOrder, byLoad));
}
