/**
 * Issue 35, day two for LXD operators: a fresh berthd whose members only
 * report what LXD members report (some only their state, others also their
 * resources document), driven by the real `lxc` client. No inventory is
 * written by hand: every one is derived from the reports.
 */
import { lxdMemberState } from "@berth/engine/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { memberResources, type TestServer } from "../testing/test-server.fixture.js";
import { describeWithLxc, type LxcClient, type LxcRun, startLxcCluster } from "./lxc-runner.fixture.js";

const VM_FINGERPRINT = "c1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
const FINGERPRINT = "b1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";

describeWithLxc("lxc member-report tests")(
  "the real lxc client over members that only report",
  { timeout: 180_000 },
  () => {
    let server: TestServer;
    let client: LxcClient;
    const lxc = (args: string[]): Promise<LxcRun> => client.lxc(args);
    const ok = (args: string[]): Promise<string> => client.ok(args);

    async function put(path: string, body: unknown): Promise<void> {
      const { status, body: envelope } = await server.call("PUT", path, body);
      if (status !== 200) throw new Error(`PUT ${path}: ${status} ${JSON.stringify(envelope)}`);
    }

    beforeAll(async () => {
      ({ server, client } = await startLxcCluster({
        images: [
          { alias: "ubuntu/24.04", fingerprint: FINGERPRINT },
          { alias: "ubuntu/24.04/vm", fingerprint: VM_FINGERPRINT, type: "virtual-machine" },
        ],
      }));
      for (const name of ["node1", "node2", "node3"])
        expect((await server.call("POST", "/1.0/cluster/members", { server_name: name })).status).toBe(201);
      // node1: an LXD 6.2+ member that only heartbeats.
      await put("/1.0/cluster/members/node1/state", lxdMemberState(16, 8, 500));
      // node2: an older LXD (no logical_cpus) that also sends its resources document.
      await put("/1.0/cluster/members/node2/state", lxdMemberState(32, undefined, 500));
      await put("/1.0/cluster/members/node2/resources", memberResources(16, 32));
      // node3: an older LXD's heartbeat with no storage pool, and nothing else.
      await put("/1.0/cluster/members/node3/state", lxdMemberState(64));
      // What `lxd init` leaves in the default profile: a root disk on the pool named default.
      await ok(["profile", "device", "add", "default", "root", "disk", "path=/", "pool=default"]);
    });
    afterAll(async () => {
      await server?.close();
    });

    it("every member is sized from its reports, and says so", async () => {
      const inventories = async (name: string) =>
        Object.fromEntries(
          Object.entries(
            (await server.call("GET", `/1.0/cluster/members/${name}/inventories`)).body.metadata
              .inventories as Record<string, { total: number; derived: boolean }>,
          ).map(([resourceClass, v]) => [resourceClass, [v.total, v.derived]]),
        );
      expect(await inventories("node1")).toEqual({
        VCPU: [8, true],
        MEMORY_MB: [16384, true],
        DISK_GB: [500, true],
      });
      expect(await inventories("node2")).toEqual({
        VCPU: [16, true],
        MEMORY_MB: [32768, true],
        DISK_GB: [500, true],
      });
      expect(await inventories("node3")).toEqual({ MEMORY_MB: [65536, true] });
    });

    it("lxc init with limits.cpu, limits.memory (also a percentage), a root disk size and --vm all place", async () => {
      await ok(["init", "ubuntu/24.04", "c1", "-c", "limits.cpu=2", "-c", "limits.memory=4GiB"]);
      await ok(["init", "ubuntu/24.04", "c2", "-c", "limits.memory=50%"]);
      await ok(["init", "ubuntu/24.04", "c3", "-d", "root,size=20GiB"]);
      await ok(["init", "ubuntu/24.04/vm", "v1", "--vm"]);
      for (const name of ["c1", "c3", "v1"])
        expect(["node1", "node2"]).toContain((await server.engine.instances.get("default", name)).location);
    });

    it("lxc config set and lxc config device override of those keys work", async () => {
      await ok(["config", "set", "c1", "limits.cpu=4"]);
      await ok(["config", "set", "c1", "limits.memory=25%"]);
      await ok(["config", "device", "override", "c1", "root", "size=30GiB"]);
      const c1 = await server.engine.instances.get("default", "c1");
      expect(c1.config["limits.cpu"]).toBe("4");
      expect(c1.devices.root?.size).toBe("30GiB");
    });

    it("a member that never reported a class is refused with the report that would size it", async () => {
      const run = await lxc(["init", "ubuntu/24.04", "d1", "-d", "root,size=20GiB", "--target", "node3"]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain("DISK_GB");
      expect(run.stderr).toContain(
        "lacks DISK_GB (report storage_pools.POOL.space.total in PUT /1.0/cluster/members/NAME/state, or set its DISK_GB inventory)",
      );
    });

    it("DISK_GB follows the pools the profiles' root disks use, as lxc edits them", async () => {
      const diskGb = async (name: string) =>
        (await server.call("GET", `/1.0/cluster/members/${name}/inventories`)).body.metadata.inventories
          .DISK_GB?.total;
      // node1 now also reports a pool named fast; no profile's root disk uses it yet.
      const state = lxdMemberState(16, 8, 500);
      const fast = { space: { used: 0, total: 100 * 1024 ** 3 }, inodes: { used: 0, total: 1000 } };
      await put("/1.0/cluster/members/node1/state", {
        ...state,
        storage_pools: { ...state.storage_pools, fast },
      });
      expect(await diskGb("node1")).toBe(500);
      await ok(["profile", "create", "fast"]);
      await ok(["profile", "device", "add", "fast", "root", "disk", "path=/", "pool=fast"]);
      // Instances may land on either pool: node1 counts both; node2 has no pool named fast.
      expect(await diskGb("node1")).toBe(600);
      expect(await diskGb("node2")).toBe(500);
      await ok(["profile", "delete", "fast"]);
      expect(await diskGb("node1")).toBe(500);
    });

    it("lxc cluster unset removes a member config key", async () => {
      await ok(["cluster", "set", "node1", "scheduler.instance", "manual"]);
      expect(server.engine.members.get("node1").record.config).toEqual({ "scheduler.instance": "manual" });
      await ok(["cluster", "unset", "node1", "scheduler.instance"]);
      expect(server.engine.members.get("node1").record.config).toEqual({});
    });
  },
);
