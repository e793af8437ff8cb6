export { instanceRecordOf, listInstances, loadInstanceByName, loadInstancesByIds } from "./instances.js";
export { consumersOnMembers, readMemberUsage } from "./member-usage.js";
export { loadMember, loadMembers } from "./members.js";
export { readConfig, readConfigVersion, writeConfig } from "./server-config.js";
export { readSnapshot } from "./snapshot.js";
