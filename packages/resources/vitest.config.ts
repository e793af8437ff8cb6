import { defineConfig, mergeConfig } from "vitest/config";
import { sharedTestConfig } from "../../vitest.shared.js";

// Coverage is part of this package's contract (100% of lines), so every run
// measures it and prints the numbers where CI shows them.
export default mergeConfig(
  defineConfig(sharedTestConfig),
  defineConfig({
    test: {
      coverage: {
        provider: "v8",
        include: ["src/**/*.ts"],
        // Test fixtures are not the package's code.
        exclude: ["src/**/*.test.ts", "src/testing/**"],
        reporter: ["text-summary", "text"],
        thresholds: { lines: 100 },
      },
    },
  }),
);
