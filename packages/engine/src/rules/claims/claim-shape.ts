/**
 * One hidden class for every claim a Store hands the claim rules.
 *
 * Why: a bulk claim of thousands of records (a seed, a big bulk create)
 * makes V8 compile the rules' record loops on stack (OSR) with the shape of
 * THAT claim object, and Node 20 keeps re-entering that OSR code after it
 * bails out. An engine's claims, built field by field (claim/draft.ts), have
 * another shape, so every later claim bailed out of it: about 2,900 bailouts
 * of ~0.2 ms in 8,000 creates after a 100k-instance seed (bench
 * seed-memory, 2026-11-29), where d77d930 had 17. With one shape, about 60, none repeating.
 */
import type { Claim } from "../../store/port.js";

/** The same claim, with every field of `Claim` present (undefined when absent) in one fixed order. */
export function claimOfOneShape(claim: Claim): Claim {
  // Typed with every key required: a field added to `Claim` fails to compile here instead of being dropped.
  const shaped: { [K in keyof Required<Claim>]: Claim[K] } = {
    create: claim.create,
    replace: claim.replace,
    remove: claim.remove,
    projectLimits: claim.projectLimits,
    memberStates: claim.memberStates,
    token: claim.token,
  };
  return shaped;
}
