/**
 * A placement (a create, or a move to a group) whose HTTP client goes away stops its scriptlet:
 * berthd passes the request's AbortSignal to the scriptlet worker, the run ends at once with the interpreter's own text
 * instead of running on to its deadline, and the worker serves the next placement.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BerthApi } from "@berth/client/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDaemon, startDaemon } from "../testing/daemon.fixture.js";
import { addMembers } from "../testing/test-server.fixture.js";

const RUNAWAY =
  "def instance_placement(request, candidate_members):\n    for i in range(1000000000):\n        pass\n";
const DEADLINE_MS = 10_000;

/** POSTs `body` to `path` on the Unix socket and hangs up after `afterMs`, before any answer. */
function postThenHangUp(socketPath: string, path: string, body: unknown, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const req = request({
      socketPath,
      path,
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    req.on("error", () => resolve());
    req.on("response", () => resolve());
    req.end(JSON.stringify(body));
    setTimeout(() => {
      req.destroy();
      resolve();
    }, afterMs);
  });
}

interface AccessLine {
  method?: string;
  path?: string;
  status?: number;
  ms?: number;
  error_kind?: string;
  msg?: string;
}

function accessLines(out: string): AccessLine[] {
  return out
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as AccessLine)
    .filter((line) => line.msg === "request");
}

describe("a placement whose client goes away", () => {
  const dir = mkdtempSync(join(tmpdir(), "berthd-abort-"));
  const socket = join(dir, "berth.sock");
  let daemon: RunningDaemon;
  let local: BerthApi;
  beforeAll(async () => {
    daemon = await startDaemon(
      ["--db", join(dir, "berth.db"), "--listen", "127.0.0.1:0", "--socket", socket, "--state-dir", "none"],
      { ...process.env, BERTH_LOG_LEVEL: "info" },
    );
    local = new BerthApi({ socketPath: socket });
    await addMembers(local, [{ name: "node1" }, { name: "node2" }]);
  });
  afterAll(async () => {
    await daemon?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * With a runaway scriptlet, POSTs `body` to `path` and hangs up: the handler still answers (to
   * nobody) once the run has stopped, and its access-log line says how and when. Then no scriptlet.
   */
  async function expectRunStoppedWhenClientLeaves(path: string, body: unknown): Promise<void> {
    await local.patchServerConfig({
      "instances.placement.scriptlet.max_steps": "1000000000000",
      "instances.placement.scriptlet.timeout_ms": String(DEADLINE_MS),
      "instances.placement.scriptlet": RUNAWAY,
    });
    await postThenHangUp(socket, path, body, 500);
    const logged = () => accessLines(daemon.stdout()).find((line) => line.path === path.split("?")[0]);
    await expect.poll(logged, { timeout: 30_000 }).toBeDefined();
    expect(logged()).toMatchObject({ method: "POST", status: 400, error_kind: "scriptlet" });
    // Without the signal the run went on to its 10 s deadline.
    expect(logged()!.ms).toBeLessThan(DEADLINE_MS - 1_000);
    await local.patchServerConfig({ "instances.placement.scriptlet": "" });
  }

  it("stops its scriptlet run in the worker; the worker then serves the next placement", async () => {
    await expectRunStoppedWhenClientLeaves("/1.0/instances", { name: "gone" });
    const placed = await local.createInstance({ name: "next" });
    expect(placed.metadata.location).toMatch(/^node[12]$/);
    expect(await local.instances.names()).toEqual(["next"]);
    // The run stopped itself: no worker had to be terminated.
    expect(daemon.stdout()).not.toContain("scriptlet worker replaced");
  });

  it("a move to a group stops its scriptlet run too, and the instance stays where it was", async () => {
    const placed = await local.createInstance({ name: "mover" });
    const from = placed.metadata.location;
    await expectRunStoppedWhenClientLeaves("/1.0/instances/mover?target=@default", {});
    expect((await local.instances.get("mover")).location).toBe(from);
    expect(daemon.stdout()).not.toContain("scriptlet worker replaced");
  });
});
