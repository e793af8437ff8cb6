import type { ViteUserConfig } from "vitest/config";

/**
 * Test settings every workspace package shares. Besides the usual console
 * reporter, each run writes a JSON report that `scripts/test-summary.mjs`
 * adds up into one closing "N passed, N failed" line for CI.
 */
export const sharedTestConfig: ViteUserConfig = {
  test: {
    include: ["src/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
};
