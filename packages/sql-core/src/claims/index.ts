export { claimEntries, claimRows } from "./claim-rows.js";
export {
  applyClaim,
  applyCreateClaims,
  type ClaimOutcome,
  type ClaimProviders,
  ClaimQueue,
  type ClaimSide,
  type Existing,
  isCreateOnly,
  lookUpRowsOf,
  projectTotalsFrom,
  type QueuedClaim,
  settleClaims,
} from "./claim-side.js";
