export { createScriptletHost } from "./host.js";
export type * from "./port.js";
