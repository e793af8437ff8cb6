import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../vitest.shared.js";

/**
 * `pnpm test:reliability`: the whole reliability suite at the quality bars' sizes,
 * against real berthd processes on loopback. Files run one at a time so load
 * tests do not disturb each other's latency figures.
 */
export default defineConfig({
  ...sharedTestConfig,
  test: {
    ...sharedTestConfig.test,
    include: ["src/reliability/**/*.reliability.test.ts"],
    globalSetup: ["src/reliability/global-setup.ts"],
    provide: { reliabilityScale: "full" },
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    outputFile: { json: "reports/vitest-reliability.json" },
  },
});
