/**
 * Issue #32 over HTTP against a real berthd on SQLite: the capacity answer
 * of `POST /1.0/cluster/capacity` is exact. Exactly that many creates of
 * the body then succeed, each member taking what the answer gave it, and
 * the next create is refused, for mixed inventories and allocation ratios,
 * reservations, project limits.instances and limits.cpu, a strict spread
 * placement group and a flavor with a custom class.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing/test-server.fixture.js";

describe("POST /1.0/cluster/capacity is exact", () => {
  let server: TestServer;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body);

  beforeEach(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await server.close();
  });

  async function member(
    name: string,
    inventories: Record<string, unknown>,
    config: Record<string, string> = {},
  ) {
    expect((await call("POST", "/1.0/cluster/members", { server_name: name, config })).status).toBe(201);
    const { generation } = (await call("GET", `/1.0/cluster/members/${name}/inventories`)).body.metadata;
    const put = await call("PUT", `/1.0/cluster/members/${name}/inventories`, { generation, inventories });
    expect(put.status).toBe(200);
  }

  /** Asks, then creates one after another: the answer's count succeeds where it said, the next is refused. */
  async function expectExact(body: Record<string, unknown>, query = "") {
    const asked = await call("POST", `/1.0/cluster/capacity${query}`, body);
    expect(asked.status).toBe(200);
    const answer = asked.body.metadata;
    const landed: Record<string, number> = {};
    for (let index = 0; index < answer.instances; index++) {
      const created = await call("POST", `/1.0/instances${query}`, { ...body, name: `c${index}` });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const location = created.body.metadata.location as string;
      landed[location] = (landed[location] ?? 0) + 1;
    }
    const next = await call("POST", `/1.0/instances${query}`, { ...body, name: "one-too-many" });
    expect(next.status).toBeGreaterThanOrEqual(400);
    const given = Object.fromEntries(
      (answer.members as { name: string; instances: number }[])
        .filter((one) => one.instances > 0)
        .map((one) => [one.name, one.instances]),
    );
    expect(given).toEqual(landed);
    return answer;
  }

  it("counts mixed inventories and allocation ratios, reservations counted as used", async () => {
    await member("n1", {
      VCPU: { total: 8, allocation_ratio: 1.5 },
      MEMORY_MB: { total: 16384, reserved: 1024 },
    });
    await member("n2", { VCPU: { total: 4, allocation_ratio: 4 }, MEMORY_MB: { total: 8192 } });
    await member("n3", { VCPU: { total: 2 }, MEMORY_MB: { total: 65536 } });
    const reserved = await call("POST", "/1.0/instances?target=n1", {
      forthcoming: true,
      config: { "limits.cpu": "4", "limits.memory": "1GiB" },
    });
    expect(reserved.status).toBe(201);
    const answer = await expectExact({ config: { "limits.cpu": "2", "limits.memory": "2GiB" } });
    expect(answer.members).toEqual([
      { name: "n1", instances: 4, limited_by: "capacity:VCPU" },
      { name: "n2", instances: 4, limited_by: "capacity:MEMORY_MB" },
      { name: "n3", instances: 1, limited_by: "capacity:VCPU" },
    ]);
    expect(answer.counted_by).toBe("closed-form");
    expect(answer.largest).toEqual({ multiple: 4, location: "n1", resources: { VCPU: 8, MEMORY_MB: 8192 } });
  });

  it("stops at the project's limits.instances and limits.cpu", async () => {
    await member("n1", { VCPU: { total: 16 }, MEMORY_MB: { total: 65536 } });
    await member("n2", { VCPU: { total: 4 }, MEMORY_MB: { total: 65536 } });
    await call("POST", "/1.0/projects", { name: "counted", config: { "limits.instances": "5" } });
    await call("POST", "/1.0/instances?project=counted", { name: "old", config: { "limits.cpu": "1" } });
    const counted = await expectExact({ config: { "limits.cpu": "1" } }, "?project=counted");
    expect(counted.instances).toBe(4);
    expect(counted.limited_by).toBe("limits.instances");
    expect(counted.project.limits).toEqual([
      { key: "limits.instances", max: 5, used: 1, room: 4, per_instance: 1, instances: 4 },
    ]);

    await call("POST", "/1.0/projects", { name: "cpus", config: { "limits.cpu": "9" } });
    const cpus = await expectExact({ config: { "limits.cpu": "2" } }, "?project=cpus");
    expect(cpus.instances).toBe(4);
    expect(cpus.limited_by).toBe("limits.cpu");
  });

  it("gives a strict spread placement group one instance per member not hosting it yet", async () => {
    for (const name of ["n1", "n2", "n3", "n4"])
      await member(name, { VCPU: { total: 8 }, MEMORY_MB: { total: 8192 } });
    await member("small", { VCPU: { total: 1 }, MEMORY_MB: { total: 8192 } });
    expect(
      (await call("POST", "/1.0/placement-groups", { name: "pg", policy: "spread", rigor: "strict" })).status,
    ).toBe(201);
    const body = { config: { "placement.group": "pg", "limits.cpu": "2" } };
    expect((await call("POST", "/1.0/instances?target=n3", { ...body, name: "first" })).status).toBe(201);
    const answer = await expectExact(body);
    expect(answer.instances).toBe(3);
    expect(answer.counted_by).toBe("simulation");
    const why = Object.fromEntries(
      answer.members.map((one: { name: string; limited_by: string }) => [one.name, one.limited_by]),
    );
    expect(why).toMatchObject({ n3: "spread:pg", small: "capacity:VCPU" });
  });

  it("counts a flavor with a custom class where that class is, and the largest flavor that fits", async () => {
    expect((await call("POST", "/1.0/resource-classes", { name: "CUSTOM_GPU" })).status).toBe(201);
    await member("gpu1", { VCPU: { total: 16 }, MEMORY_MB: { total: 65536 }, CUSTOM_GPU: { total: 3 } });
    await member("gpu2", {
      VCPU: { total: 16 },
      MEMORY_MB: { total: 65536 },
      CUSTOM_GPU: { total: 8, reserved: 2, step_size: 2 },
    });
    await member("plain", { VCPU: { total: 64 }, MEMORY_MB: { total: 65536 } });
    for (const gpus of [2, 4, 8]) {
      const flavor = {
        name: `g${gpus}`,
        vcpus: gpus,
        memory_mb: gpus * 1024,
        disk_gb: 0,
        extra_specs: { "resources:CUSTOM_GPU": `${gpus}` },
      };
      expect((await call("POST", "/1.0/flavors", flavor)).status).toBe(201);
    }
    const tiers = await call("POST", "/1.0/cluster/capacity", { flavor: "g2", flavors: ["g8", "g4", "g2"] });
    expect(tiers.status, JSON.stringify(tiers.body)).toBe(200);
    expect(tiers.body.metadata.flavors).toEqual([
      { name: "g8", instances: 0, limited_by: "capacity:CUSTOM_GPU" },
      { name: "g4", instances: 1, limited_by: "capacity:CUSTOM_GPU" },
      { name: "g2", instances: 4, limited_by: "capacity:CUSTOM_GPU" },
    ]);
    expect(tiers.body.metadata.largest_flavor).toBe("g4");
    const answer = await expectExact({ flavor: "g2" });
    expect(answer.members.find((one: { name: string }) => one.name === "plain").limited_by).toBe(
      "lack:CUSTOM_GPU",
    );
  });

  it("answers bad input with a clear 4xx in the LXD envelope", async () => {
    await member("n1", { VCPU: { total: 8 }, MEMORY_MB: { total: 8192 } });
    const unknownFlavor = await call("POST", "/1.0/cluster/capacity", { flavor: "nope" });
    expect(unknownFlavor.status).toBe(404);
    expect(unknownFlavor.body.type).toBe("error");
    const badList = await call("POST", "/1.0/cluster/capacity", { flavors: "g2" });
    expect(badList.status).toBe(400);
    const unknownMember = await call("POST", "/1.0/cluster/capacity?target=ghost", {
      config: { "limits.cpu": "1" },
    });
    expect(unknownMember.status).toBe(404);
    const sizeless = await call("POST", "/1.0/cluster/capacity", {});
    expect(sizeless.status).toBe(400);
    expect(sizeless.body.error).toContain("asks for no resource");
  });
});
