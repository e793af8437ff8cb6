/**
 * Subpath `@berth/engine/testing`: record builders for tests of Store
 * implementations and their child processes. Plain functions with no test
 * framework import (the contract suite at `@berth/engine/store-contract`
 * imports vitest).
 */
export {
  allocationsOf,
  inventory,
  mirroredInstance,
  newInstance,
  newMember,
  testId,
} from "./testing/fixtures.js";
export { lxdMemberState } from "./testing/member-reports.fixture.js";
