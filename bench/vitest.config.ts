import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../vitest.shared.js";

/**
 * The normal test run: unit tests plus the reliability suite at a bounded
 * size (same tests, smaller counts; `pnpm test:reliability` runs them full size).
 */
export default defineConfig({
  ...sharedTestConfig,
  test: {
    ...sharedTestConfig.test,
    globalSetup: ["src/reliability/global-setup.ts"],
    provide: { reliabilityScale: "ci" },
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
