export { INSTANCE_COLUMNS, instanceRowValues } from "./instance-row-values.js";
export { instancesById, loadInstancesByIds } from "./instances.js";
export { valuesOf } from "./member-side-rows.js";
export { memberProvidersSql, readMemberProviders } from "./provider-tuples.js";
export { readSnapshot } from "./snapshot.js";
