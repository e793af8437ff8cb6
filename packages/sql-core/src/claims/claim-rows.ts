/**
 * The rows a checked claim writes besides its instances, made once for
 * both stores (nothing here checks anything: the engine's claim rules did).
 * Each list is bound as ONE JSON parameter, rows of the table's columns in
 * order. SQLite inserts each on its own; PostgreSQL makes them parts of one
 * statement (one round trip).
 */
import { type ChangeEntry, type CheckedClaim, claimEntryOf } from "@berth/engine";
import { mergedAllocationRows } from "../rows/instance-row-values.js";
import { projectTotalsValues } from "../rows/provider-tuples.js";
import type { SqlParam } from "../runner/runner.js";

/** The rows of a claim's allocations, profile links, usage and project counters (unsharded). */
export function claimRows(
  claim: CheckedClaim,
  memberIds: ReadonlyMap<string, number>,
): Record<"allocations" | "links" | "usage" | "projects", SqlParam[][]> {
  const { stored, usageChanges, projectChanges } = claim;
  return {
    allocations: stored.flatMap((record) => mergedAllocationRows(record, memberIds)),
    // Links only answer "may this profile go?", and `default` never goes nor is renamed (the
    // engine's catalog service refuses both): nearly every create writes none (two index pages less).
    links: stored.flatMap((r) =>
      [...new Set(r.profiles)].filter((p) => p !== "default").map((p) => [r.id, r.project, p]),
    ),
    usage: usageChanges.map((u) => [memberIds.get(u.provider)!, u.resourceClass, u.ledger, u.amount]),
    projects: [...projectChanges].map(([project, totals]) => [project, ...projectTotalsValues(totals)]),
  };
}

/**
 * The change-feed entries of a claim: its members whose state it changed
 * (other engines re-read them when the feed says so), then the claim's own.
 */
export function claimEntries(claim: CheckedClaim, memberIds: ReadonlyMap<string, number>): ChangeEntry[] {
  return [
    ...claim.memberStates.map(
      ({ member }): ChangeEntry => ({
        kind: "member",
        name: member,
        joinOrder: memberIds.get(member)!,
        change: "updated",
      }),
    ),
    claimEntryOf(claim),
  ];
}
