export * from "./catalogs/index.js";
export * from "./check/index.js";
export * from "./consumers/index.js";
export * from "./credentials/index.js";
export * from "./migrations/index.js";
export * from "./rows/index.js";
export * from "./runner/index.js";
export * from "./schema/index.js";
export { SqlStoreCore } from "./store/sql-store-core.js";
