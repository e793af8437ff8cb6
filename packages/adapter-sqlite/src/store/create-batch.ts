import {
  type Claim,
  type ClaimResult,
  type InstanceRecord,
  type MemberUsage,
  storedInstance,
} from "@berth/engine";
import { translateDriverError } from "../connection/driver-errors.js";
import type { RawSql } from "../connection/open-connection.js";
import {
  checkCapacity,
  checkNames,
  checkNewIds,
  checkProjectLimits,
  contributionOf,
  DIMENSIONS,
  type Existing,
  loadMemberState,
  lookUpExisting,
  type MemberState,
  type ProjectTotals,
  pairKey,
  readProjectTotals,
  requireProjects,
  usageAfter,
  writeClaim,
  zeroTotals,
} from "./claim.js";

export type Outcome = { ok: true; result: ClaimResult } | { ok: false; error: unknown };

/** Only creates: nothing to re-read per claim, so a batch of them can be checked against one read. */
export function isCreateOnly(claim: Claim): boolean {
  return (claim.remove ?? []).length === 0 && (claim.replace ?? []).length === 0;
}

/**
 * Applies create-only claims of one group commit as if one after another,
 * with the statements of one: the ids, names, projects and member state of
 * all of them are read once, each claim is checked in turn against those
 * rows plus the claims accepted before it (the same checks, in the same
 * order, with the same errors as `applyClaim`), and the accepted ones are
 * written together. Under concurrent placements this replaces some eight
 * statements and a savepoint per claim with eight per batch. The caller
 * runs it inside a savepoint: if anything throws here (not a claim's own
 * refusal, which becomes its outcome), nothing of it remains and the
 * claims are applied one by one instead.
 */
export async function applyCreateClaims(raw: RawSql, claims: Claim[]): Promise<Outcome[]> {
  const all = claims.flatMap((claim) => claim.create ?? []);
  const existing = await lookUpExisting(raw, all, all);
  const members = await loadMemberState(raw, [], all);
  // Project counters as stored, read when a limit first needs them, and
  // what the claims accepted so far added to them.
  const storedTotals = new Map<string, ProjectTotals>();
  const acceptedTotals = new Map<string, ProjectTotals>();
  const totalsOf = async (project: string): Promise<ProjectTotals> => {
    let stored = storedTotals.get(project);
    if (stored === undefined) storedTotals.set(project, (stored = await readProjectTotals(raw, project)));
    const accepted = acceptedTotals.get(project) ?? zeroTotals();
    const total = zeroTotals();
    for (const d of DIMENSIONS) total[d] = stored[d] + accepted[d];
    return total;
  };

  const accepted: InstanceRecord[] = [];
  const outcomes: Outcome[] = [];
  for (const claim of claims) {
    const creates = claim.create ?? [];
    try {
      checkNewIds(existing.ids, creates, []);
      checkNames(existing.nameHolders, creates, new Set());
      requireProjects(existing.projects, creates);
      const touched = checkCapacity([], creates, new Map(), members);
      await checkProjectLimits(totalsOf, [], creates, claim.projectLimits ?? {});
      const stored = creates.map((record) => storedInstance(record, 1));
      const usage = usageAfter({
        removed: [],
        stored,
        memberIds: members.ids,
        touched,
        usageBefore: members.usage,
      });
      outcomes.push({ ok: true, result: { instances: stored, usage } });
      accepted.push(...stored);
      remember(existing, members, acceptedTotals, stored, usage);
    } catch (error) {
      outcomes.push({ ok: false, error: translateDriverError(error) });
    }
  }
  await writeClaim(raw, {
    removed: [],
    stored: accepted,
    memberIds: members.ids,
    touched: new Set(),
    usageBefore: new Map(),
  });
  return outcomes;
}

/** What an accepted claim changed, so the claims after it are checked against it. */
function remember(
  existing: Existing,
  members: MemberState,
  acceptedTotals: Map<string, ProjectTotals>,
  stored: InstanceRecord[],
  usage: MemberUsage[],
): void {
  for (const record of stored) {
    existing.ids.add(record.id);
    if (record.name !== "") existing.nameHolders.set(`${record.project}/${record.name}`, record.id);
    const totals = acceptedTotals.get(record.project) ?? zeroTotals();
    const contribution = contributionOf(record);
    for (const d of DIMENSIONS) totals[d] += contribution[d];
    acceptedTotals.set(record.project, totals);
    for (const row of record.allocations) {
      if (row.amount === 0 || !members.ids.has(row.member)) continue;
      const key = pairKey(row.member, row.resourceClass);
      members.consumed.set(key, (members.consumed.get(key) ?? 0) + row.amount);
    }
  }
  // Copies: the claim's caller owns the objects in its result.
  for (const entry of usage) {
    members.usage.set(entry.member, {
      member: entry.member,
      used: { ...entry.used },
      forthcoming: { ...entry.forthcoming },
    });
  }
}
