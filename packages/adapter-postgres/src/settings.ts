/**
 * What berthd reads of this store before it picks one (option defaults, which `--db` is ours,
 * the URL it logs), without pg or the store's modules: a berthd on SQLite never loads them.
 */
export * from "./connection/pool-defaults.js";
export { isPostgresUrl, redactedUrl } from "./connection/store-url.js";
export { COMMIT_DELAY_MS } from "./store/batch-turns.js";
