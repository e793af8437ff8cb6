import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../exit-codes.js";
import { cliChecks, type RunningBerthd, startBerthd } from "../testing/berth.fixture.js";
import { seedCluster } from "../testing/cluster.fixture.js";

/**
 * `berth cluster capacity` against a real berthd on the seeded cluster: three
 * members of 16 VCPU (8 at ratio 2), 16 GiB and 200 GiB; m1.small is 1 VCPU,
 * 2 GiB and 20 GiB, so memory stops each member at 8.
 */
let server: RunningBerthd;
const { ok, fails } = cliChecks(() => server);

beforeAll(async () => {
  server = await startBerthd();
  await seedCluster(server);
});

afterAll(async () => {
  await server?.stop();
});

describe("berth cluster capacity", { timeout: 180_000 }, () => {
  it("says how many more fit, where, and what stops each member", async () => {
    const table = await ok(["cluster", "capacity", "--flavor", "m1.small"]);
    expect(table).toContain("24 more instance(s) of this shape fit (limited by capacity:MEMORY_MB)\n");
    expect(table).toMatch(/^\| node1 +\| 8 +\| capacity:MEMORY_MB +\|$/m);
    expect(table).toContain(
      "Largest that fits: 8x this shape on node1 (DISK_GB=160.00GiB MEMORY_MB=16.00GiB VCPU=8)\n",
    );
    const answer = JSON.parse(await ok(["cluster", "capacity", "--flavor", "m1.small", "--format", "json"]));
    expect(answer.instances).toBe(24);
    expect(answer.members).toHaveLength(3);
  });

  it("counts the project's limits, a target and the flavors given as tiers", async () => {
    const team = await ok([
      "--project",
      "team-a",
      "cluster",
      "capacity",
      "-c",
      "limits.cpu=1",
      "--format",
      "yaml",
    ]);
    expect(team).toContain("instances: 2\n");
    expect(team).toContain("limited_by: limits.instances\n");
    const one = JSON.parse(
      await ok(["cluster", "capacity", "-c", "limits.cpu=4", "--target", "node2", "--format", "json"]),
    );
    expect(one).toMatchObject({
      instances: 4,
      members: [{ name: "node2", instances: 4, limited_by: "capacity:VCPU" }],
    });
    const tiers = await ok([
      "cluster",
      "capacity",
      "--flavor",
      "m1.small",
      "--tier",
      "huge",
      "--tier",
      "m1.small",
    ]);
    expect(tiers).toMatch(/^\| huge +\| 0 +\| capacity:MEMORY_MB +\|$/m);
    expect(tiers).toContain("Largest flavor that fits: m1.small\n");
  });

  it("fails like a create on a flavor that does not exist", async () => {
    await fails(
      ["cluster", "capacity", "--flavor", "nope"],
      ExitCode.notFound,
      /^Error: .*Flavor "nope" not found/,
    );
  });
});
