export { claimEntries, claimRows } from "./claim-rows.js";
export {
  applyClaim,
  applyCreateClaims,
  type ClaimProviders,
  ClaimQueue,
  type ClaimSide,
  type Existing,
  lookUpRowsOf,
  projectTotalsFrom,
  type QueuedClaim,
  settleClaims,
} from "./claim-side.js";
