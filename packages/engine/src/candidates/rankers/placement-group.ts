/**
 * Placement groups (spread/compact x strict/permissive). Spread ranks
 * members hosting fewer of the group's instances first, compact more;
 * members the group ranks equal keep the default order. Strict rigor also
 * turns members down: spread those already hosting the group, compact
 * those not hosting it (once any member does).
 */
import type { MemberState } from "../../model/member-state.js";
import type { Ranker, Ranking } from "../ranker.js";
import { rejection } from "../rejection.js";

export const placementGroupRanker: Ranker = {
  name: "placement group",
  rank: (request, model) => {
    const group = request.groupPolicy;
    if (group === null) return null;
    const counts = model.groupCountsOf(group.project, group.name);
    const countOf = (member: MemberState) => counts.get(member.name) ?? 0;
    const spread = group.policy === "spread";
    const ranking: Ranking = { key: spread ? countOf : (member) => -countOf(member) };
    if (group.rigor !== "strict") return ranking;
    if (spread) {
      const hosts = rejection(
        `spread:${group.name}`,
        `already hosts an instance of placement group "${group.name}" (strict spread)`,
        `already host instances of placement group "${group.name}" (strict spread)`,
      );
      return { ...ranking, reject: (member) => (countOf(member) === 0 ? undefined : hosts) };
    }
    // Strict compact binds to where the group already is; its first instance may go anywhere.
    if (![...counts.values()].some((count) => count > 0)) return ranking;
    const elsewhere = rejection(
      `compact:${group.name}`,
      `does not host placement group "${group.name}" (strict compact)`,
      `do not host placement group "${group.name}" (strict compact)`,
    );
    return { ...ranking, reject: (member) => (countOf(member) > 0 ? undefined : elsewhere) };
  },
};
