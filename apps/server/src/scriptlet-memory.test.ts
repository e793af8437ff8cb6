import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "./testing/test-server.fixture.js";

/** #17's bombs: every list and string stays under the per-value caps; only the run's total is too much. */
const BOMBS = {
  lists:
    "def instance_placement(request, candidate_members):\n    keep = []\n    for i in range(100000):\n        keep.append([0] * 1000000)\n",
  strings:
    'def instance_placement(request, candidate_members):\n    keep = []\n    s = "x" * 1000\n    for i in range(100000):\n        keep.append(s.replace("x", "y" * 1000))\n',
};

describe("a scriptlet's total memory budget over HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await addMembers(server.local(), [{ name: "node1" }]);
  });
  afterAll(() => server.close());

  for (const [kind, source] of Object.entries(BOMBS)) {
    it(`refuses the ${kind} bomb with 400 naming the budget, and keeps serving`, async () => {
      const admin = server.tcp(server.adminToken);
      await admin.patchServerConfig({
        "instances.placement.scriptlet.max_memory": String(16 << 20),
        "instances.placement.scriptlet": source,
      });
      const response = await server.fetch("/1.0/instances", {
        method: "POST",
        token: server.adminToken,
        body: JSON.stringify({ name: `bomb-${kind}` }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe(
        "Failed instance placement scriptlet: Failed to run: starlark: memory budget of 16777216 bytes exceeded",
      );
      expect((await server.fetch("/1.0", { token: server.adminToken })).status).toBe(200);
      await admin.patchServerConfig({ "instances.placement.scriptlet": "" });
      expect((await admin.createInstance({ name: `after-${kind}` })).metadata.location).toBe("node1");
    });
  }

  it("caps the budget at 1 GiB, so no setting lets a scriptlet exhaust the heap", async () => {
    const response = await server.fetch("/1.0", {
      method: "PATCH",
      token: server.adminToken,
      body: JSON.stringify({ config: { "instances.placement.scriptlet.max_memory": String(2 ** 31) } }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /instances\.placement\.scriptlet\.max_memory.*must be an integer of bytes from 1048576 to 1073741824/,
    );
  });
});
