/**
 * The workspace's shared test settings (vitest.shared.ts) give every test run a temp
 * BERTH_STATE_DIR for the berthd processes it starts; the run must remove it when it ends.
 * This runs the real vitest on a one-test project that uses those settings and looks for the
 * folder afterwards.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const SHARED_CONFIG = new URL("../../../../vitest.shared.ts", import.meta.url).pathname;
const VITEST = join(createRequire(import.meta.url).resolve("vitest/package.json"), "..", "vitest.mjs");

let project: string | undefined;
afterEach(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
  project = undefined;
});

describe("the shared test settings' state folder", () => {
  it("exists while the tests run and is gone once the run ends", () => {
    project = mkdtempSync(join(tmpdir(), "berth-state-dir-check-"));
    const seen = join(project, "seen.txt");
    writeFileSync(
      join(project, "vitest.config.ts"),
      `import { sharedTestConfig } from ${JSON.stringify(SHARED_CONFIG)};
export default { ...sharedTestConfig, test: { ...sharedTestConfig.test, globals: true, reporters: ["default"] } };
`,
    );
    // globals: the project sits outside the workspace, where "vitest" cannot be imported.
    mkdirSync(join(project, "src"));
    writeFileSync(
      join(project, "src", "state.test.ts"),
      `import { existsSync, writeFileSync } from "node:fs";
test("sees its state folder", () => {
  const dir = process.env.BERTH_STATE_DIR ?? "";
  writeFileSync(${JSON.stringify(seen)}, dir);
  expect(existsSync(dir)).toBe(true);
});
`,
    );
    const run = spawnSync(
      process.execPath,
      [VITEST, "run", "--root", project, "--config", "vitest.config.ts"],
      { encoding: "utf8", env: { ...process.env, BERTH_STATE_DIR: "" }, timeout: 100_000 },
    );
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/1 passed/);
    const dir = readFileSync(seen, "utf8");
    expect(dir).toMatch(/berth-test-state-/);
    expect(existsSync(dir)).toBe(false);
  });
});
