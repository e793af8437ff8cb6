/**
 * OpenStack Placement's own functional tests (gabbi YAML, Placement 8.0.0)
 * run by the real `gabbi-run` against a real berthd: every file of
 * REQUIRED_GABBITS must pass in full. Each file gets a fresh server (an
 * empty ledger, as the kit's reset would leave it), so the kit's own reset
 * step is a no-op (PLACEMENT_RESET_CMD=true).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";
import { GABBI_PYTHON, GABBI_RUN, GABBITS_KIT, gabbiUnavailable, REQUIRED_GABBITS } from "./gabbits.js";
import { PLACEMENT_PREFIX } from "./placement-app.js";

const run = promisify(execFile);
const missing = gabbiUnavailable();

describe.skipIf(missing !== undefined)("Placement gabbits against berthd", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  for (const [file, count] of Object.entries(REQUIRED_GABBITS)) {
    it(`passes ${file} (${count} tests)`, { timeout: 60_000 }, async () => {
      server = await startTestServer({ placementNoauth: true });
      const { stdout } = await run(`${GABBITS_KIT}run.sh`, [`${server.url}${PLACEMENT_PREFIX}`, file], {
        env: {
          ...process.env,
          PLACEMENT_RESET_CMD: "true",
          GABBI_RUN,
          PYTHON: GABBI_PYTHON,
          PLACEMENT_GABBI_VERBOSE: "1",
        },
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
      expect(stdout).toContain(`PASS ${file} ${count}/${count}`);
    });
  }
});

if (missing !== undefined) {
  describe("Placement gabbits against berthd", () => {
    it.skip(`skipped: ${missing}`, () => {});
  });
}
