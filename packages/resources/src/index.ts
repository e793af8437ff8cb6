/**
 * @berth/resources: Berth's resource arithmetic as pure, dependency-free
 * functions. Fallible functions return `Result` values whose errors carry a
 * `kind` and a `message` (LXD, Nova and Placement texts where those exist).
 */
export { type CpuLimitError, countCpuset, parseCpuLimit } from "./cpu.js";
export {
  type ExtraSpecError,
  type ExtraSpecs,
  type ExtraSpecValidationOptions,
  type ParsedExtraSpecs,
  type ParsedGroup,
  parseExtraSpecs,
  pythonInt,
  validateExtraSpecs,
} from "./extra-specs.js";
export {
  checkFit,
  FIT_OK,
  type FitFailure,
  type FitVerdict,
  noInventory,
  type UnitViolation,
  unitViolation,
} from "./fit.js";
export { type Flavor, type FlavorError, type FlavorInput, validateFlavor } from "./flavor.js";
export {
  type ExpandedInstance,
  findRootDiskDevice,
  type InstanceConfig,
  type InstanceDevice,
  type InstanceDevices,
  type InstanceType,
  isRootDiskDevice,
} from "./instance.js";
export { type ConfigKeyScope, instanceConfigProblem } from "./instance-config-keys.js";
export {
  applyInstanceSizing,
  buildInstanceRequest,
  type InstanceRequest,
  type InstanceRequestError,
  type InstanceRequestInput,
  type MemberAmounts,
  type MemoryShare,
  onMember,
} from "./instance-request.js";
export {
  computeInstanceDemand,
  computeInstanceResources,
  type InstanceDemand,
  type InstanceResources,
  type InstanceResourcesError,
  type InstanceResourcesField,
  type InstanceResourcesOptions,
  LXD_VM_DEFAULTS,
  type LxdInstanceResources,
  memorySizeOn,
  type VmDefaults,
} from "./instance-resources.js";
export { type InstanceTypeError, type InstanceTypeLimits, parseInstanceType } from "./instance-type.js";
export {
  type CapacityFields,
  displayedCapacity,
  INVENTORY_DEFAULTS,
  type Inventory,
  type InventoryError,
  type InventoryInput,
  inventoryCapacity,
  MAX_ALLOCATION_RATIO,
  MAX_INT,
  normalizeInventory,
} from "./inventory.js";
export {
  addAllocation,
  combinedUsage,
  commitForthcoming,
  emptyUsage,
  fitsWithBothLedgers,
  type Ledger,
  type LedgerError,
  type MemberUsage,
  type ResourceAmounts,
  subtractAllocation,
  type UsageMap,
} from "./ledger.js";
export {
  DEFAULT_ALLOCATION_RATIOS,
  DEFAULT_STANDARD_INVENTORY,
  deriveMemberInventories,
  type MemberInventoryError,
  type StandardInventoryDefaults,
} from "./member-inventories.js";
export {
  type MemoryLimit,
  type MemoryLimitError,
  memberMemoryBytes,
  parseMemoryLimit,
  resolveMemoryPercentage,
} from "./memory-limit.js";
export {
  CAPACITY_REPORT_FIELDS,
  capacityReportHint,
  type ReportedCapacity,
  reportedCapacity,
} from "./reported-capacity.js";
export {
  CUSTOM_NAME_PATTERN,
  CUSTOM_NAMESPACE,
  type CustomNameError,
  isCustomResourceClass,
  isStandardResourceClass,
  isWellFormedResourceClass,
  MAX_NAME_LENGTH,
  MIN_CUSTOM_RESOURCE_CLASS_ID,
  normalizeCustomName,
  RESOURCE_CLASS_PATTERN,
  resourceClassMessages,
  STANDARD_RESOURCE_CLASSES,
  type StandardResourceClass,
  standardResourceClassId,
  validateCustomName,
} from "./resource-classes.js";
export {
  type BaseAmounts,
  buildRequest,
  type NovaFlavor,
  type RequestGroup,
  type ResourceRequest,
  type ResourceRequestError,
  requestFromNovaFlavor,
  toPlacementQuery,
} from "./resource-request.js";
export { err, ok, type Result } from "./result.js";
export { rootDiskPools } from "./root-disk-pools.js";
export {
  bytesToGibibytesCeil,
  bytesToMebibytesCeil,
  formatByteSize,
  formatByteSizeExact,
  formatByteSizeIEC,
  GiB,
  KiB,
  MiB,
  parseByteSize,
  SIZE_MULTIPLIERS,
  type SizeError,
} from "./sizes.js";
export { isStandardTrait, STANDARD_TRAITS } from "./standard-traits.js";
