import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ViteUserConfig } from "vitest/config";

/**
 * Where the berthd processes a test run starts keep their own certificate when the test names no
 * state directory: a fresh temp folder, never the machine's `/var/lib/berth` (CI runs as root).
 * Each package's run has its own (packages run side by side under turbo), made when vitest loads
 * this config and removed when that vitest process exits (after every test file and teardown of
 * the run), so test runs leave no `berth-test-state-*` folders behind.
 */
const testStateDir = mkdtempSync(join(tmpdir(), "berth-test-state-"));
process.once("exit", () => rmSync(testStateDir, { recursive: true, force: true }));

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
    // `expect.poll` waits for something another process or server does (a notification, a
    // connection coming up): vitest's 1 s default failed sound tests on that loaded machine too.
    expect: { poll: { timeout: 20_000 } },
    env: { BERTH_STATE_DIR: testStateDir },
  },
};
