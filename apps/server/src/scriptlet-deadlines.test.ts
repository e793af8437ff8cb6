import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "./testing/test-server.fixture.js";

const RUNAWAY =
  "def instance_placement(request, candidate_members):\n    for i in range(1000000000):\n        pass\n";

describe("scriptlet deadlines over HTTP", () => {
  let server: TestServer;
  const patch = (config: Record<string, string>) =>
    server.fetch("/1.0", { method: "PATCH", token: server.adminToken, body: JSON.stringify({ config }) });
  beforeAll(async () => {
    server = await startTestServer();
    await addMembers(server.local(), [{ name: "node1" }, { name: "node2" }]);
  });
  afterAll(() => server.close());

  it("refuses a per-run timeout over 10 s (60 s used to be accepted)", async () => {
    const response = await patch({ "instances.placement.scriptlet.timeout_ms": "60000" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /instances\.placement\.scriptlet\.timeout_ms.*must be an integer of milliseconds from 1 to 10000/,
    );
  });

  it("bounds a bulk create by the operation's total scriptlet time, placing nothing", async () => {
    expect(
      (
        await patch({
          // No step limit in the way: on an idle machine 10 million steps take less than 300 ms,
          // and this test is about the operation's total time.
          "instances.placement.scriptlet.max_steps": "1000000000000",
          "instances.placement.scriptlet.timeout_ms": "10000",
          "instances.placement.scriptlet.total_timeout_ms": "300",
          "instances.placement.scriptlet": RUNAWAY,
        })
      ).status,
    ).toBe(200);
    const started = Date.now();
    const response = await server.fetch("/1.0/instances/bulk", {
      method: "POST",
      token: server.adminToken,
      body: JSON.stringify({ instances: [{ name: "b1" }, { name: "b2" }, { name: "b3" }] }),
    });
    const elapsed = Date.now() - started;
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe(
      `Instance "b1" (index 0) could not be placed: Failed instance placement scriptlet: Failed to run: the operation's scriptlet time of 300 ms (instances.placement.scriptlet.total_timeout_ms) ran out`,
    );
    // Far under the 10 s per-run deadline it would have waited for; generous for a loaded machine.
    expect(elapsed).toBeLessThan(5_000);
    await patch({ "instances.placement.scriptlet": "", "instances.placement.scriptlet.max_steps": "" });
    const listed = (await (await server.fetch("/1.0/instances", { token: server.adminToken })).json()) as {
      metadata: string[];
    };
    expect(listed.metadata).toEqual([]);
  });
});
