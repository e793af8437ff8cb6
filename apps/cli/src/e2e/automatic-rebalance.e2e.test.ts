import { BerthApi } from "@berth/client/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliChecks, type RunningBerthd, startBerthd } from "../testing/berth.fixture.js";
import { seedCluster } from "../testing/cluster.fixture.js";

/**
 * `berth cluster rebalance --dry-run` against a real berthd: the next
 * automatic run (Incus's `cluster.rebalance.*`) as tables, csv and json.
 */
let server: RunningBerthd;
const { ok } = cliChecks(() => server);

beforeAll(async () => {
  server = await startBerthd();
  await seedCluster(server);
  // node1 (8 CPUs, 16 GiB) full of three live-migratable VMs and a container: score 100.
  const api = new BerthApi({ socketPath: server.socket });
  const sized = { "limits.cpu": "2", "limits.memory": "4GiB" };
  for (const name of ["vm1", "vm2", "vm3"])
    await api.createInstance(
      { name, type: "virtual-machine", config: { ...sized, "migration.stateful": "true" } },
      { target: "node1" },
    );
  await api.createInstance({ name: "ct", config: sized }, { target: "node1" });
});

afterAll(async () => {
  await server?.stop();
});

describe("berth cluster rebalance --dry-run", { timeout: 180_000 }, () => {
  it("shows the next automatic run: scores, the moves within the batch, and why the others stay", async () => {
    await ok(["config", "set", "cluster.rebalance.interval", "5"]);
    const shown = await ok(["cluster", "rebalance", "--dry-run"]);
    expect(shown).toMatch(
      /^Automatic rebalancing every 5 minute\(s\), threshold 20%, batch 1, cooldown 6H(; next run at \S+)?\.\n/,
    );
    expect(shown).toContain("x86_64: load node1 100, node2 0, node3 0; difference 100%: relieves node1\n");
    expect(shown).toMatch(/\| vm1 +\| default +\| node1 \(100\) +\| node3 \(0 -> 25\) +\|/);
    expect(shown).toMatch(
      /\| ct +\| default +\| node1 +\| it cannot live-migrate: it is not a virtual machine +\|/,
    );
    expect(shown).toMatch(
      /\| vm2 +\| default +\| node1 +\| this run already moves 1 \(cluster.rebalance.batch\) +\|/,
    );
    expect(shown).toMatch(/The next automatic run moves 1 instance\(s\)\.\n$/);
    // Nothing moved.
    expect(await ok(["list", "location=node1", "--format", "csv"])).toContain("vm1,");
  });

  it("prints the moves as csv and the whole answer as json", async () => {
    expect(await ok(["cluster", "rebalance", "--dry-run", "--format", "csv"])).toBe(
      "vm1,default,node1,node3\n",
    );
    const answer = JSON.parse(await ok(["cluster", "rebalance", "--dry-run", "--format", "json"]));
    expect(answer).toMatchObject({
      enabled: true,
      interval: 5,
      batch: 1,
      moves: [{ instance: "vm1", to: "node3" }],
    });
    expect(answer.stayed.map((stayed: { reason: string }) => stayed.reason).sort()).toEqual([
      "batch-full",
      "batch-full",
      "not-live-migratable",
    ]);
  });
});
