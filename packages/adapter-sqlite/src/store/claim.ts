import type { Claim, ClaimResult } from "@berth/engine";
import { checkClaim, claimResultOf } from "@berth/engine";
import type { Database, RawSql } from "../connection/open-connection.js";
import { readClaimRows } from "./claim-reads.js";
import { writeClaim } from "./claim-writes.js";

/**
 * Applies one claim inside the caller's write transaction (BEGIN IMMEDIATE,
 * so nothing read here can change before commit, in this process or any
 * other): reads the rows the claim touches, lets the engine's claim rules
 * check them (revisions, ids, names, projects, members, inventory
 * constraints, capacity over both ledgers, project limits), and writes what
 * they return: instances, allocations, and the usage and project counter
 * rows that sum them, together. A refusal throws and the transaction rolls
 * back, so a claim lands entirely or not at all.
 */
export async function applyClaim(db: Database, raw: RawSql, claim: Claim): Promise<ClaimResult> {
  const { rows, memberIds } = await readClaimRows(db, raw, claim);
  const checked = checkClaim(claim, rows);
  await writeClaim(raw, checked, memberIds);
  return claimResultOf(checked);
}
