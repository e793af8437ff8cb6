export { BUILTIN_NAMES, type BuiltinName } from "./builtins.js";
export { createScriptletHost, type ScriptletHostOptions, VALIDATION_LIMITS } from "./host.js";
export { createPlainClusterView, type PlainClusterData } from "./plain-cluster.js";
export type * from "./port.js";
export { DEFAULT_LOG_BUDGET } from "./run-log.js";
