/**
 * @berth/api-types: Berth's wire types and their runtime schemas, with LXD/Incus JSON
 * field names. Every `XxxSchema` is a zod schema; `Xxx` is the TypeScript type it produces.
 * Validate request bodies with `parseBody(schema, body)`.
 */
export * from "./bulk.js";
export * from "./capacity.js";
export * from "./dry-run.js";
export * from "./envelope.js";
export * from "./expiry.js";
export * from "./flavors.js";
export * from "./images.js";
export * from "./instances.js";
export * from "./inventories.js";
export * from "./member-resources.js";
export * from "./member-state.js";
export * from "./members.js";
export * from "./names.js";
export * from "./placement-groups.js";
export * from "./placement-record.js";
export * from "./primitives.js";
export * from "./profiles.js";
export * from "./projects.js";
export * from "./rebalance.js";
export * from "./registry.js";
export * from "./rejections.js";
export * from "./resource-classes.js";
export * from "./scriptlet.js";
export * from "./scriptlet-check.js";
export * from "./server.js";
export * from "./server-config.js";
export * from "./tokens.js";
export * from "./topology.js";
export type * from "./trust.js";
export * from "./validation.js";
export * from "./warnings.js";
