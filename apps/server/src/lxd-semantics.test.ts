/**
 * Issue #15 over HTTP against a real berthd: the safety rules and LXD/Nova
 * semantics outside named members (named-member.test.ts has items 1-2).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "./testing/test-server.fixture.js";

describe("LXD and Nova semantics every path obeys", () => {
  let server: TestServer;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body);

  async function refused(method: string, path: string, body: unknown, status: number, error: string) {
    const answer = await call(method, path, body);
    expect({ status: answer.status, error: answer.body.error }).toEqual({ status, error });
  }

  beforeAll(async () => {
    server = await startTestServer();
    await addMembers(server.local(), [{ name: "n1" }, { name: "n2" }]);
  });
  afterAll(() => server.close());

  it("item 5: a restricted project blocks member targeting unless restricted.cluster.target=allow", async () => {
    expect(
      (await call("POST", "/1.0/projects", { name: "locked", config: { restricted: "true" } })).status,
    ).toBe(201);
    await refused(
      "POST",
      "/1.0/instances?project=locked&target=n1",
      { name: "t1" },
      403,
      "This project doesn't allow cluster member targeting",
    );
    await refused(
      "POST",
      "/1.0/instances?project=locked&target=@default",
      { name: "t1" },
      403,
      "This project doesn't allow cluster member targeting",
    );
    expect((await call("POST", "/1.0/instances?project=locked", { name: "t1" })).status).toBe(201);
    await call("PATCH", "/1.0/projects/locked", { config: { "restricted.cluster.target": "allow" } });
    expect((await call("POST", "/1.0/instances?project=locked&target=n1", { name: "t2" })).status).toBe(201);
  });

  it("item 7: a flavor's custom amount must be positive and a standard one not negative (Nova's words)", async () => {
    const flavor = (name: string, extra_specs: Record<string, string>) => ({
      name,
      vcpus: 1,
      memory_mb: 512,
      disk_gb: 1,
      extra_specs,
    });
    for (const [spec, value, min] of [
      ["resources:CUSTOM_FPGA", "-1", "1"],
      ["resources:CUSTOM_FPGA", "0", "1"],
      ["resources1:VCPU", "-2", "0"],
    ] as const) {
      await refused(
        "POST",
        "/1.0/flavors",
        flavor("fpga", { [spec]: value }),
        400,
        `Validation failed; '${value}' is less than the min value of '${min}'.`,
      );
    }
    expect((await call("POST", "/1.0/flavors", flavor("bare", { "resources:VCPU": "0" }))).status).toBe(201);
  });

  it("item 13: cluster.healing_threshold below cluster.offline_threshold is refused, defaults included", async () => {
    await refused(
      "PATCH",
      "/1.0",
      { config: { "cluster.healing_threshold": "15" } },
      400,
      'Cannot set "cluster.healing_threshold" to "15": must be 0 or at least cluster.offline_threshold (20)',
    );
    expect((await call("PATCH", "/1.0", { config: { "cluster.healing_threshold": "30" } })).status).toBe(200);
    await refused(
      "PATCH",
      "/1.0",
      { config: { "cluster.offline_threshold": "60" } },
      400,
      'Cannot set "cluster.healing_threshold" to "30": must be 0 or at least cluster.offline_threshold (60)',
    );
    expect((await call("PATCH", "/1.0", { config: { "cluster.healing_threshold": "0" } })).status).toBe(200);
  });

  it("item 11: the default cluster group always exists, holds every member and can't be deleted", async () => {
    expect((await call("GET", "/1.0/cluster/members/n1")).body.metadata.groups).toEqual(["default"]);
    expect((await call("GET", "/1.0/cluster/groups/default")).body.metadata.members).toEqual(["n1", "n2"]);
    await refused(
      "DELETE",
      "/1.0/cluster/groups/default",
      undefined,
      403,
      "The 'default' cluster group cannot be deleted",
    );
    await call("POST", "/1.0/cluster/groups", { name: "fast" });
    expect((await call("PATCH", "/1.0/cluster/members/n2", { groups: ["fast"] })).status).toBe(200);
    expect((await call("GET", "/1.0/cluster/members/n2")).body.metadata.groups).toEqual(["default", "fast"]);
  });
});
