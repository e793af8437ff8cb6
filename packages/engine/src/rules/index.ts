/**
 * The claim rules: pure functions over a snapshot of the rows a claim
 * touches. Every Store calls them and checks nothing itself: it reads the
 * rows (`claimReads`, `providersToRead`, `projectTotalsToRead`), calls
 * `checkClaim`, and writes what it returns. See the package README,
 * "Claim rules".
 */
export {
  type CheckedInTurn,
  type ClaimAccepted,
  type ClaimOutcome,
  type ClaimRefused,
  checkClaimsInTurn,
  combineClaims,
  foldClaim,
  isCreateOnly,
} from "./claims/batch.js";
export { consumedOf } from "./claims/capacity.js";
export { type CheckedClaim, checkClaim } from "./claims/check-claim.js";
export * from "./claims/failures.js";
export {
  addFailover,
  FAILOVER_CLASS,
  type FailoverChange,
  failoverChangesOf,
  failoverMemoryOf,
  failoverOf,
  MIRRORED_CLASS,
  withMirrors,
} from "./claims/mirrors.js";
export { exceededLimit } from "./claims/project-limits.js";
export {
  addProjectTotals,
  type CountedInstance,
  countInProject,
  type LimitExcess,
  PROJECT_DIMENSIONS,
  PROJECT_LIMIT_KEYS,
  type ProjectDimension,
  type ProjectTotals,
  projectUsageOf,
  zeroProjectTotals,
} from "./claims/project-usage.js";
export {
  type ClaimReads,
  claimReads,
  newRecordsOf,
  projectTotalsToRead,
  providersToRead,
} from "./claims/reads.js";
export { type ClaimRows, nameKey, type ProviderRows } from "./claims/rows.js";
export { addToLedger, type UsageChange } from "./claims/usage-after.js";
export {
  type CheckReport,
  type ConsumerSumRow,
  consumerLedgerViolations,
  type MemberClassRow,
  memberClassRowOf,
  membersOfConsumerRows,
  overCapacity,
  projectUsageMismatch,
  usageMismatch,
  usageWithoutInventory,
  type Violation,
  type ViolationKind,
} from "./invariants/invariants.js";
export {
  type CheckedConsumerClaim,
  type ConsumerClaimRows,
  checkConsumerClaim,
  consumerGenerationFailure,
  consumerProvidersToRead,
  instanceConsumerFailure,
} from "./ledger/consumer-claim.js";
export {
  INSTANCE_CONSUMER_TYPE,
  INSTANCE_CONSUMER_USER,
  type InstanceConsumers,
  instanceConsumerOf,
} from "./ledger/instance-consumers.js";
export {
  type CheckedMemberRootWrite,
  checkMemberRootWrite,
  explicitInventories,
  inventoryInUse,
  type MemberRootReshape,
  type MemberRootRows,
  type MemberRootWriters,
  memberRootReshapes,
  memberRootRow,
  type ReshapeMemberRoot,
  reshapedMemberOf,
  reshapeMemberRoots,
  rootGeneration,
  withMemberRootRows,
  writeCheckedMemberRoot,
  writeMemberRootReshapes,
} from "./ledger/member-root.js";
export {
  type CheckedReshape,
  checkReshape,
  type ReshapedProvider,
  type ReshapeProviderRows,
  type ReshapeRows,
  reshapeProvidersToRead,
} from "./ledger/reshape.js";
export {
  isMemberRoot,
  memberProviderUuid,
  nameBasedUuid,
  placementProviderRows,
  sharedLedgerRows,
  withConsumersUsed,
  withMemberRows,
} from "./ledger/shared-ledger.js";
