/**
 * The claim rules composed: `checkClaim` runs every check a claim must pass
 * against the rows a Store read, in a fixed order (so every Store refuses a
 * claim that breaks several rules with the same first refusal), and says
 * what to write. A Store reads the rows (`reads.ts`), calls it, and writes
 * `removed`, `stored`, `usageChanges` and `projectChanges`; it checks
 * nothing itself.
 */
import { storedInstance } from "../../store/clone.js";
import type { Claim, MemberStateChange, MemberUsage } from "../../store/port.js";
import type { InstanceRecord } from "../../store/records.js";
import { type InstanceConsumers, instanceConsumersOf } from "../ledger/instance-consumers.js";
import { checkAllocations } from "./allocations.js";
import { checkCapacity } from "./capacity.js";
import { consumptionChanges } from "./consumption.js";
import { memberMissingFailure } from "./failures.js";
import { checkNames, checkNewIds } from "./identities.js";
import { checkFailover, checkMirrorShape, type FailoverChange, failoverChangesOf } from "./mirrors.js";
import { checkProjectLimits } from "./project-limits.js";
import { isProjectChange, type ProjectTotals, projectChangesOf } from "./project-usage.js";
import { requireProjects } from "./projects.js";
import { currentVersions } from "./revisions.js";
import { type ClaimRows, isPlacementProvider } from "./rows.js";
import { type UsageChange, usageAfter, usageChangesOf } from "./usage-after.js";

/** A claim that passed every rule, and the rows it changes. */
export interface CheckedClaim {
  /** Current versions of the removed and replaced instances: rows to delete. */
  readonly removed: InstanceRecord[];
  /** Replacing and created instances with their new revisions: rows to insert (and the claim's answer). */
  readonly stored: InstanceRecord[];
  /** Usage of every touched provider after the claim, by name (the claim's answer). */
  readonly usage: MemberUsage[];
  /** What to add to the members' usage rows, per (member, class, ledger); never zero. */
  readonly usageChanges: UsageChange[];
  /** The instances' consumers on Placement providers to delete and write (instance-consumers.ts). */
  readonly instanceConsumers: InstanceConsumers;
  /** What to add to each project's limit counters; never all zero. */
  readonly projectChanges: Map<string, ProjectTotals>;
  /** Member maintenance states to set (every member exists). */
  readonly memberStates: readonly MemberStateChange[];
  /** How the mirrored memory of secondaries changes, per primary (for Stores that keep those sums). */
  readonly failoverChanges: readonly FailoverChange[];
  /** The claims' tokens (`Claim.token`), for the change-feed entry (rules/claims/claim-effect.ts `claimEntryOf`). */
  readonly tokens: readonly string[];
}

/**
 * Checks, in this order: removed and replaced instances exist at the
 * expected revision; new ids are free; names are free; projects exist;
 * locations, allocation providers and members whose state it sets exist,
 * with an inventory of each
 * class and its unit constraints met; secondaries of mirrored instances
 * exist and hold exactly mirrors of their storage; capacity over both
 * ledgers; N+1 of every member mirroring memory; project limits. Throws the
 * first refusal (`failures.ts`).
 */
export function checkClaim(claim: Claim, rows: ClaimRows): CheckedClaim {
  // Before the first loop: a bulk claim without a token compiles the code after it on stack (OSR,
  // claim-shape.ts), and a branch it never took there bails out of that code on every later claim.
  const tokens = claim.token === undefined ? [] : [claim.token];
  const { removed, replaced, replacing } = currentVersions(claim, rows.instances);
  const creates = claim.create ?? [];
  checkNewIds(creates, replacing, rows.takenIds);
  const records = replacing.length === 0 ? creates : [...replacing, ...creates];
  checkNames(records, removed, rows.nameHolders);
  requireProjects(records, rows.projects);
  checkAllocations(records, replaced, rows.providers);
  for (const record of records) checkMirrorShape(record, rows.providers);
  const memberStates = claim.memberStates ?? [];
  for (const { member } of memberStates) if (!rows.providers.has(member)) throw memberMissingFailure(member);
  const changes = consumptionChanges(removed, records);
  checkCapacity(changes, rows.providers);
  const failoverChanges = failoverChangesOf(removed, records);
  checkFailover(changes, failoverChanges, rows.providers);
  const projectChanges = projectChangesOf(removed, records);
  // Most claims carry no limits (projects without any): nothing to check.
  if (claim.projectLimits !== undefined)
    checkProjectLimits(claim.projectLimits, projectChanges, rows.projectTotals);
  for (const [project, change] of projectChanges)
    if (!isProjectChange(change)) projectChanges.delete(project);
  const stored = records.map((record) =>
    storedInstance(record, (replaced.get(record.id)?.revision ?? 0) + 1),
  );
  let usageChanges = usageChangesOf(changes, rows.providers);
  let placementChanges: UsageChange[] = [];
  // Most claims change no Placement provider: the list as it is, not copied into a second one.
  const onPlacement = (change: UsageChange) => isPlacementProvider(rows.providers, change.provider);
  if (usageChanges.some(onPlacement)) {
    placementChanges = usageChanges.filter(onPlacement);
    usageChanges = usageChanges.filter((change) => !onPlacement(change));
  }
  return {
    removed,
    stored,
    usage: usageAfter(changes, rows.providers),
    usageChanges,
    instanceConsumers: instanceConsumersOf(removed, stored, rows.providers, placementChanges),
    projectChanges,
    memberStates,
    failoverChanges,
    tokens,
  };
}
