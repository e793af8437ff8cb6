/**
 * OpenStack Placement's own functional tests (gabbi YAML, Placement 8.0.0)
 * run by the real `gabbi-run` against a real berthd: every file of
 * REQUIRED_GABBITS must pass in full. Each file gets a fresh server (an
 * empty ledger, as the kit's reset would leave it), so the kit's own reset
 * step is a no-op (PLACEMENT_RESET_CMD=true).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";
import {
  DELIBERATE_DIFFERENCES,
  GABBI_PYTHON,
  GABBI_RUN,
  GABBITS_KIT,
  gabbiTestId,
  gabbiUnavailable,
  REQUIRED_GABBITS,
} from "./gabbits.js";
import { PLACEMENT_PREFIX } from "./placement-app.js";

const run = promisify(execFile);
const missing = gabbiUnavailable();

describe.skipIf(missing !== undefined)("Placement gabbits against berthd", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** Runs one file against a fresh berthd; the runner's report. */
  async function runFile(file: string): Promise<string> {
    server = await startTestServer({ placementNoauth: true });
    // The kit keeps each file's fixture environment and log in a folder; the
    // verbose report already carries what a failure needs, so it goes away.
    const logDir = mkdtempSync(join(tmpdir(), "placement-gabbi-"));
    onTestFinished(() => rmSync(logDir, { recursive: true, force: true }));
    const { stdout } = await run(`${GABBITS_KIT}run.sh`, [`${server.url}${PLACEMENT_PREFIX}`, file], {
      env: {
        ...process.env,
        PLACEMENT_RESET_CMD: "true",
        GABBI_RUN,
        PYTHON: GABBI_PYTHON,
        PLACEMENT_GABBI_VERBOSE: "1",
        PLACEMENT_GABBI_LOGDIR: logDir,
      },
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
    return stdout;
  }

  for (const [file, count] of Object.entries(REQUIRED_GABBITS)) {
    it(`passes ${file} (${count} tests)`, { timeout: 60_000 }, async () => {
      expect(await runFile(file)).toContain(`PASS ${file} ${count}/${count}`);
    });
  }

  for (const [file, { tests, differing }] of Object.entries(DELIBERATE_DIFFERENCES)) {
    it(`passes ${file} but for its ${differing.length} deliberate difference(s)`, {
      timeout: 60_000,
    }, async () => {
      const report = await runFile(file);
      expect(report).toContain(`FAIL ${file} ${tests - differing.length}/${tests}`);
      const failed = [...report.matchAll(/FAIL: (\S+)/g)].map((m) => m[1]);
      expect(failed).toEqual(differing.map((name) => gabbiTestId(file, name)));
    });
  }
});

if (missing !== undefined) {
  describe("Placement gabbits against berthd", () => {
    it.skip(`skipped: ${missing}`, () => {});
  });
}
