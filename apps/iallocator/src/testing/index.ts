/** Generated inputs and an independent rule check, for tests and `bench/`. */
export { type ClusterShape, generateCluster, seeded } from "./clusters.js";
export { memorySpread, newViolations, violations } from "./rules.js";
export {
  type Answer,
  BIN,
  HAIL,
  hailInstalled,
  runBerth,
  runHail,
  SHARED_INPUTS,
  withInputFile,
} from "./run.js";
