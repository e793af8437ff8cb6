import { defineConfig, mergeConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

export default defineConfig(
  mergeConfig(sharedTestConfig, {
    test: {
      include: ["src/**/*.test.ts"],
      // The browser tests start berthd and Chromium once and walk every view in order
      // (timeouts: the workspace's, vitest.shared.ts).
      fileParallelism: false,
    },
  }),
);
