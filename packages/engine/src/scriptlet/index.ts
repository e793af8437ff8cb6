export { BUILTIN_NAMES, type BuiltinName } from "./builtins.js";
export { createScriptletHost, type ScriptletHostOptions, VALIDATION_LIMITS } from "./host.js";
export { inProcessRunner } from "./in-process-runner.js";
/** Prefixes of LXD's texts: the server log line (`Instance placement scriptlet: <message>`) and rejections. */
export {
  FAILURE_PREFIX as SCRIPTLET_FAILURE_PREFIX,
  LOG_PREFIX as SCRIPTLET_LOG_PREFIX,
} from "./messages.js";
export { createPlainClusterView, type PlainClusterData } from "./plain-cluster.js";
export type * from "./port.js";
export { DEFAULT_LOG_BUDGET } from "./run-log.js";
