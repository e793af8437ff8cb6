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

  it("stops its scriptlet run in the worker; the worker then serves the next placement", async () => {
    await local.patchServerConfig({
      "instances.placement.scriptlet.max_steps": "1000000000000",
      "instances.placement.scriptlet.timeout_ms": String(DEADLINE_MS),
      "instances.placement.scriptlet": RUNAWAY,
    });
    await postThenHangUp(socket, "/1.0/instances", { name: "gone" }, 500);
    // The handler still answers (to nobody) once the run has stopped: its access-log line says when.
    await expect
      .poll(() => accessLines(daemon.stdout()).find((line) => line.path === "/1.0/instances"), {
        timeout: 30_000,
      })
      .toBeDefined();
    const line = accessLines(daemon.stdout()).find((one) => one.path === "/1.0/instances")!;
    expect(line).toMatchObject({ method: "POST", status: 400, error_kind: "scriptlet" });
    // Without the signal the run went on to its 10 s deadline.
    expect(line.ms).toBeLessThan(DEADLINE_MS - 1_000);
    await local.patchServerConfig({ "instances.placement.scriptlet": "" });
    const placed = await local.createInstance({ name: "next" });
    expect(placed.metadata.location).toMatch(/^node[12]$/);
    expect(await local.instances.names()).toEqual(["next"]);
    // The run stopped itself: no worker had to be terminated.
    expect(daemon.stdout()).not.toContain("scriptlet worker replaced");
  });

  it("a move to a group stops its scriptlet run too, and the instance stays where it was", async () => {
    const placed = await local.createInstance({ name: "mover" });
    const from = placed.metadata.location;
    await local.patchServerConfig({
      "instances.placement.scriptlet.max_steps": "1000000000000",
      "instances.placement.scriptlet.timeout_ms": String(DEADLINE_MS),
      "instances.placement.scriptlet": RUNAWAY,
    });
    await postThenHangUp(socket, "/1.0/instances/mover?target=@default", {}, 500);
    await expect
      .poll(() => accessLines(daemon.stdout()).find((line) => line.path === "/1.0/instances/mover"), {
        timeout: 30_000,
      })
      .toBeDefined();
    const line = accessLines(daemon.stdout()).find((one) => one.path === "/1.0/instances/mover")!;
    expect(line).toMatchObject({ method: "POST", status: 400, error_kind: "scriptlet" });
    expect(line.ms).toBeLessThan(DEADLINE_MS - 1_000);
    await local.patchServerConfig({ "instances.placement.scriptlet": "" });
    expect((await local.instances.get("mover")).location).toBe(from);
    expect(daemon.stdout()).not.toContain("scriptlet worker replaced");
  });
});
