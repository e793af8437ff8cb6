/**
 * The claim rules: pure functions over a snapshot of the rows a claim
 * touches. Every Store calls them and checks nothing itself: it reads the
 * rows (`claimReads`, `providersToRead`, `projectTotalsToRead`), calls
 * `checkClaim`, and writes what it returns. See the package README,
 * "Claim rules".
 */
export { combineClaims, foldClaim } from "./batch.js";
export { consumedOf } from "./capacity.js";
export { type CheckedClaim, checkClaim } from "./check-claim.js";
export {
  type CheckedConsumerClaim,
  type ConsumerClaimRows,
  checkConsumerClaim,
  consumerGenerationFailure,
  consumerProvidersToRead,
  instanceConsumerFailure,
} from "./consumer-claim.js";
export * from "./failures.js";
export {
  INSTANCE_CONSUMER_TYPE,
  INSTANCE_CONSUMER_USER,
  type InstanceConsumers,
  instanceConsumerOf,
} from "./instance-consumers.js";
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
} from "./invariants.js";
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
} from "./member-root.js";
export {
  addFailover,
  FAILOVER_CLASS,
  type FailoverChange,
  failoverChangesOf,
  failoverMemoryOf,
  failoverOf,
  MIRRORED_CLASS,
  withMirrors,
} from "./mirrors.js";
export { exceededLimit, type LimitExcess } from "./project-limits.js";
export {
  addProjectTotals,
  type CountedInstance,
  countInProject,
  PROJECT_DIMENSIONS,
  PROJECT_LIMIT_KEYS,
  type ProjectDimension,
  type ProjectTotals,
  projectUsageOf,
  zeroProjectTotals,
} from "./project-usage.js";
export {
  type ClaimReads,
  claimReads,
  newRecordsOf,
  projectTotalsToRead,
  providersToRead,
} from "./reads.js";
export {
  type CheckedReshape,
  checkReshape,
  type ReshapedProvider,
  type ReshapeProviderRows,
  type ReshapeRows,
  reshapeProvidersToRead,
} from "./reshape.js";
export { type ClaimRows, nameKey, type ProviderRows } from "./rows.js";
export {
  isMemberRoot,
  memberProviderUuid,
  nameBasedUuid,
  placementProviderRows,
  sharedLedgerRows,
  withConsumersUsed,
  withMemberRows,
} from "./shared-ledger.js";
export { addToLedger, type UsageChange } from "./usage-after.js";
