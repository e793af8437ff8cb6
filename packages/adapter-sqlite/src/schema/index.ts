export * from "./feed.js";
export * from "./project-usage.js";
export * from "./shared.js";
