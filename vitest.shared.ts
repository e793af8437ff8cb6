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
    // Generous on purpose: a timeout here catches a hang, not slowness. With every package's
    // tests running at once on a busy 2-core machine, sound tests took up to 40 s (speed is
    // judged by `pnpm bench`, never by a test's clock).
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
};
