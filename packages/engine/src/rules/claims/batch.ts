/**
 * Group commit: several claims checked one after another against ONE read
 * of their rows, then written together. `foldClaim` makes each accepted
 * claim visible to the claims after it, exactly as if the earlier ones had
 * been written and the rows read again; `combineClaims` merges the accepted
 * ones into one write.
 */
import type { Claim, ClaimResult, MemberUsage } from "../../store/port.js";
import { combineInstanceConsumers } from "../ledger/instance-consumers.js";
import { type CheckedClaim, checkClaim } from "./check-claim.js";
import { claimResultOf } from "./claim-effect.js";
import { addFailover } from "./mirrors.js";
import { addProjectTotals, isProjectChange, type ProjectTotals, zeroProjectTotals } from "./project-usage.js";
import { type ClaimRows, nameKey } from "./rows.js";
import type { UsageChange } from "./usage-after.js";

/** Only creates: nothing to re-read per claim, so a batch of them can be checked against one read. */
export function isCreateOnly(claim: Claim): boolean {
  return (
    (claim.remove ?? []).length === 0 &&
    (claim.replace ?? []).length === 0 &&
    (claim.memberStates ?? []).length === 0
  );
}

/** One claim's answer in a batch: its result, or its own refusal. */
export type ClaimOutcome = ClaimAccepted | ClaimRefused;

/** A claim of a batch that was accepted. */
export interface ClaimAccepted {
  /** Accepted. */
  ok: true;
  /** What the claim did, as if alone. */
  result: ClaimResult;
}

/** A claim of a batch that was refused on its own. */
export interface ClaimRefused {
  /** Refused. */
  ok: false;
  /** Its refusal (an `EngineError` from the claim rules). */
  error: unknown;
}

/** The claims of a batch checked in turn (`checkClaimsInTurn`). */
export interface CheckedInTurn {
  /** Each claim's answer, in the batch's order. */
  outcomes: ClaimOutcome[];
  /** The accepted claims as one write; undefined when none was accepted. */
  write: CheckedClaim | undefined;
}

/**
 * Claims checked one after another against one read of their rows: each against `rows` plus the
 * claims accepted before it (`foldClaim`: the same checks, order and errors as alone). A claim's
 * refusal is its outcome; `write` is the accepted ones as one write (`combineClaims`), undefined
 * when none was accepted. `rows` is left folded.
 */
export function checkClaimsInTurn(claims: readonly Claim[], rows: ClaimRows): CheckedInTurn {
  const accepted: CheckedClaim[] = [];
  const outcomes: ClaimOutcome[] = [];
  for (const claim of claims) {
    try {
      const checked = checkClaim(claim, rows);
      foldClaim(rows, checked);
      accepted.push(checked);
      outcomes.push({ ok: true, result: claimResultOf(checked) });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  return { outcomes, write: accepted.length === 0 ? undefined : combineClaims(accepted) };
}

/** Applies an accepted claim to the rows it was checked against, in place. */
export function foldClaim(rows: ClaimRows, checked: CheckedClaim): void {
  for (const old of checked.removed) {
    rows.instances.delete(old.id);
    rows.takenIds.delete(old.id);
    const key = nameKey(old.project, old.name);
    if (old.name !== "" && rows.nameHolders.get(key) === old.id) rows.nameHolders.delete(key);
  }
  for (const record of checked.stored) {
    rows.instances.set(record.id, record);
    rows.takenIds.add(record.id);
    if (record.name !== "") rows.nameHolders.set(nameKey(record.project, record.name), record.id);
  }
  for (const usage of checked.usage) {
    const provider = rows.providers.get(usage.member);
    if (provider === undefined) continue;
    // Copies: the claim's caller owns the objects in its answer.
    rows.providers.set(usage.member, {
      inventories: provider.inventories,
      used: { ...usage.used },
      forthcoming: { ...usage.forthcoming },
      ...(provider.failover === undefined ? {} : { failover: provider.failover }),
      ...(provider.placement === undefined ? {} : { placement: provider.placement }),
    });
  }
  for (const change of checked.failoverChanges) {
    const provider = rows.providers.get(change.secondary);
    if (provider === undefined) continue;
    const failover = { ...provider.failover };
    addFailover(failover, change.primary, change.memory);
    rows.providers.set(change.secondary, { ...provider, failover });
  }
  for (const [project, change] of checked.projectChanges) {
    const totals = rows.projectTotals.get(project);
    if (totals === undefined) continue;
    const next = { ...totals };
    addProjectTotals(next, change);
    rows.projectTotals.set(project, next);
  }
}

/** One write for claims accepted one after another (each checked after folding the ones before it). */
export function combineClaims(claims: readonly CheckedClaim[]): CheckedClaim {
  const usage = new Map<string, MemberUsage>();
  const usageChanges = new Map<string, UsageChange>();
  const projectChanges = new Map<string, ProjectTotals>();
  for (const claim of claims) {
    // Each claim's answer already includes the ones before it: the last one is current.
    for (const entry of claim.usage) usage.set(entry.member, entry);
    for (const change of claim.usageChanges) {
      const key = `${change.provider}\u0000${change.resourceClass}\u0000${change.ledger}`;
      const sum = usageChanges.get(key);
      if (sum === undefined) usageChanges.set(key, { ...change });
      else sum.amount += change.amount;
    }
    for (const [project, change] of claim.projectChanges) {
      let sum = projectChanges.get(project);
      if (sum === undefined) projectChanges.set(project, (sum = zeroProjectTotals()));
      addProjectTotals(sum, change);
    }
  }
  for (const [project, change] of projectChanges)
    if (!isProjectChange(change)) projectChanges.delete(project);
  return {
    removed: claims.flatMap((claim) => claim.removed),
    stored: claims.flatMap((claim) => claim.stored),
    usage: [...usage.values()].sort((a, b) => (a.member < b.member ? -1 : a.member > b.member ? 1 : 0)),
    usageChanges: [...usageChanges.values()].filter((change) => change.amount !== 0),
    projectChanges,
    memberStates: claims.flatMap((claim) => claim.memberStates),
    failoverChanges: claims.flatMap((claim) => claim.failoverChanges),
    instanceConsumers: combineInstanceConsumers(claims.map((claim) => claim.instanceConsumers)),
    tokens: claims.flatMap((claim) => claim.tokens),
  };
}
