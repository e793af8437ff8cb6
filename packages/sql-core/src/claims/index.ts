export {
  applyClaim,
  applyCreateClaims,
  type ClaimOutcome,
  type ClaimProviders,
  type ClaimSide,
  type Existing,
  isCreateOnly,
  lookUpRowsOf,
  projectTotalsFrom,
} from "./claim-side.js";
