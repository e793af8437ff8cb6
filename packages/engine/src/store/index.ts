export * from "./allocations.js";
export { storedInstance } from "./clone.js";
export * from "./memory-store.js";
export type * from "./port.js";
export * from "./record-version.js";
export type * from "./records.js";
