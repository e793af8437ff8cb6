export * from "./catalog.js";
export * from "./feed.js";
export * from "./instances.js";
export * from "./members.js";
export * from "./providers.js";
export * from "./tokens.js";
export * from "./trust.js";
