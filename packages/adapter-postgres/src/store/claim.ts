import { type Claim, type ClaimResult, checkClaim, claimResultOf } from "@berth/engine";
import type { Tx } from "../connection/pools.js";
import { readClaimRows } from "./claim-reads.js";
import { writeClaim } from "./claim-writes.js";

/**
 * One claim inside the caller's write transaction: lock and read the rows
 * it touches (claim-reads.ts), let the engine's claim rules check them, and
 * write what they return together with the change-feed entry. A refusal
 * throws and the transaction rolls back: a claim lands whole or not at all.
 */
export async function applyClaim(
  tx: Tx,
  claim: Claim,
  /** Told the claim's answer before it is written (claim-batcher.ts: a COMMIT whose outcome is lost). */
  onChecked?: (result: ClaimResult) => void,
): Promise<ClaimResult> {
  const { rows, memberIds } = await readClaimRows(tx, claim);
  const checked = checkClaim(claim, rows);
  const result = claimResultOf(checked);
  onChecked?.(result);
  await writeClaim(tx, checked, memberIds);
  return result;
}
