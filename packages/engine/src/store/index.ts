export * from "./allocations.js";
export type * from "./change-feed.js";
export { storedInstance } from "./clone.js";
export { CommittedWrites } from "./committed-writes.js";
export type * from "./port.js";
export * from "./record-version.js";
export type * from "./records.js";
