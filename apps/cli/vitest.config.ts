import { defineConfig, mergeConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

export default defineConfig(
  mergeConfig(sharedTestConfig, {
    test: {
      // The e2e files spend their time waiting for the berth and berthd processes they
      // spawn, not computing; on a 2-core machine vitest would start one worker and run
      // them one after another, so allow enough workers for them to wait side by side.
      maxWorkers: 4,
    },
  }),
);
