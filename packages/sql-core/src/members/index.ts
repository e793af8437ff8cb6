export { memberLedgers, memberRootWriters, reshapeSideOf, writeMemberRoot } from "./member-root-writes.js";
export type { MemberSide } from "./member-side.js";
export {
  createMember,
  deleteMember,
  setGroupMembers,
  setInventories,
  updateMember,
} from "./member-writes.js";
