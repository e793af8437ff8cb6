import {
  type CheckedClaim,
  type Claim,
  type ClaimResult,
  type ClaimRows,
  checkClaim,
  claimReads,
  claimResultOf,
  combineClaims,
  foldClaim,
  type InstanceRecord,
  projectTotalsToRead,
  providersToRead,
} from "@berth/engine";
import { translateDriverError } from "../connection/driver-errors.js";
import type { RawSql } from "../connection/open-connection.js";
import { lookUpExisting, readClaimProviders, readProjectTotals } from "./claim-reads.js";
import { writeClaim } from "./claim-writes.js";

export type Outcome = { ok: true; result: ClaimResult } | { ok: false; error: unknown };

/** Only creates: nothing to re-read per claim, so a batch of them can be checked against one read. */
export function isCreateOnly(claim: Claim): boolean {
  return (
    (claim.remove ?? []).length === 0 &&
    (claim.replace ?? []).length === 0 &&
    (claim.memberStates ?? []).length === 0
  );
}

/** A create-only claim removes and replaces nothing, so reads no instances. */
const NO_INSTANCES: ReadonlyMap<string, InstanceRecord> = new Map();

/**
 * Applies create-only claims of one group commit as if one after another,
 * with the statements of one: the ids, names, projects, members and
 * project counters all of them touch are read once, each claim is checked
 * in turn by the engine's claim rules against those rows plus the claims
 * accepted before it (`foldClaim`: the same checks, in the same order, with
 * the same errors as `applyClaim`), and the accepted ones are written
 * together. Under concurrent placements this replaces some eight
 * statements and a savepoint per claim with eight per batch. The caller
 * runs it inside a savepoint: if anything throws here (not a claim's own
 * refusal, which becomes its outcome), nothing of it remains and the
 * claims are applied one by one instead.
 */
export async function applyCreateClaims(raw: RawSql, claims: Claim[]): Promise<Outcome[]> {
  const reads = claimReads({ create: claims.flatMap((claim) => claim.create ?? []) });
  const existing = await lookUpExisting(raw, reads);
  const providers = await readClaimProviders(raw, [
    ...new Set(claims.flatMap((claim) => providersToRead(claim, NO_INSTANCES))),
  ]);
  const projectTotals = await readProjectTotals(raw, [
    ...new Set(claims.flatMap((claim) => projectTotalsToRead(claim, NO_INSTANCES))),
  ]);
  const rows: ClaimRows = { instances: new Map(), ...existing, providers: providers.rows, projectTotals };

  const accepted: CheckedClaim[] = [];
  const outcomes: Outcome[] = [];
  for (const claim of claims) {
    try {
      const checked = checkClaim(claim, rows);
      foldClaim(rows, checked);
      accepted.push(checked);
      outcomes.push({ ok: true, result: claimResultOf(checked) });
    } catch (error) {
      outcomes.push({ ok: false, error: translateDriverError(error) });
    }
  }
  await writeClaim(raw, combineClaims(accepted), providers.ids);
  return outcomes;
}
