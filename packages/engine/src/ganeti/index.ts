export { EngineError } from "../base/errors.js";
export {
  type GroupAttempt,
  type PlacementLimits,
  type PlacementSearch,
  placeInstance,
  searchPlacement,
} from "./allocate.js";
export { type BatchOutcome, placeBatch } from "./batch.js";
export { primaryFailure, secondaryFailure } from "./checks.js";
export {
  type AllocPolicy,
  type PlacedInstance,
  SnapshotCluster,
  type SnapshotGroup,
  SnapshotNode,
  type SnapshotNodeInput,
} from "./cluster.js";
export { LEDGER_DISK_CLASS, SnapshotLedger } from "./ledger.js";
export {
  changeGroup,
  chooseSecondary,
  type EvacuationMode,
  evacuateInstance,
  rejectionText,
  relocateInstance,
  type SecondaryChoice,
  type SnapshotMoveOutcome,
  type SnapshotMoveStep,
} from "./moves.js";
export { type InstancePolicy, OPEN_POLICY, policyFailure, type SpecBound } from "./policy.js";
export { groupSurvivesAnyFailure } from "./redundancy.js";
export {
  type DiskSpec,
  diskTotal,
  type FailMode,
  type InstanceSpec,
  isMirrored,
  KNOWN_TEMPLATES,
  membersNeeded,
  usesLocalStorage,
} from "./spec.js";
