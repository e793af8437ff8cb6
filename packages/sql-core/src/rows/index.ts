export {
  type AllocationRowValues,
  INSTANCE_COLUMNS,
  instanceRowValues,
  mergedAllocationRows,
} from "./instance-row-values.js";
export { instanceRecordOf, listInstances, loadInstanceByName, loadInstancesByIds } from "./instances.js";
export { valuesOf, writeGroupMembers, writeMemberGroups, writeMemberTraits } from "./member-side-rows.js";
export { consumersOnMembers, readMemberUsage } from "./member-usage.js";
export { loadMember, loadMembers } from "./members.js";
export {
  type MemberProviderTuple,
  memberProviderRows,
  memberProvidersSql,
  projectTotalsOf,
  projectTotalsValues,
  readMemberProviders,
} from "./provider-tuples.js";
export { readConfig, readConfigVersion, writeConfig } from "./server-config.js";
export { readSnapshot } from "./snapshot.js";
