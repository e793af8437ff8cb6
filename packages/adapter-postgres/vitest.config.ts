import { defineConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

export default defineConfig({
  ...sharedTestConfig,
  test: {
    ...sharedTestConfig.test,
    // One real PostgreSQL server for the run; each test file creates its own database.
    globalSetup: ["test-support/global-setup.ts"],
  },
});
