/**
 * The write rules: pure functions that judge member, group and catalog
 * writes over the rows a Store read in its transaction, and say what to
 * write (rows, generations, feed entries) or refuse with a typed
 * `EngineError`. The memory store and both SQL stores read rows, call
 * them and write rows; none keeps a rule of its own (as with the claim
 * rules, src/rules/claims/).
 */
export * from "./catalog-in-use.js";
export * from "./catalog-records.js";
export * from "./catalog-references.js";
export * from "./config-patch.js";
export * from "./default-group.js";
export * from "./group-members.js";
export * from "./member-create.js";
export * from "./member-delete.js";
export * from "./member-entries.js";
export * from "./member-generation.js";
export * from "./member-inventories.js";
export * from "./member-references.js";
export * from "./member-update.js";
export * from "./placement-group-config.js";
export * from "./provider-traits.js";
