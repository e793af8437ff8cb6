import { defineConfig, mergeConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

// Benchmarks live in bench/ (and beside the scriptlet host in src/); never pick up compiled copies in dist/.
export default mergeConfig(
  defineConfig(sharedTestConfig),
  defineConfig({ test: { benchmark: { include: ["bench/**/*.bench.ts", "src/**/*.bench.ts"] } } }),
);
