/**
 * Issue #31 with the real LXD client (`/usr/bin/lxc`, LXD 5.0.2) against a
 * real berthd: `lxc cluster set` writes member topology keys, and `lxc
 * init -c placement.group=...` lands one instance per rack under a strict
 * spread group over `rack` (LXD 5.0.2 has no `lxc placement-group`: the
 * group is created over HTTP in LXD 6.6's format), the fourth refused.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { TestServer } from "../testing/test-server.fixture.js";
import { describeWithLxc, type LxcClient, type LxcRun, startLxcCluster } from "./lxc-runner.fixture.js";

const FINGERPRINT = "c1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
const MEMBERS = ["a1", "a2", "b1", "b2", "c1", "c2"];
const rackOf = (member: string) => `${member[0]!.toUpperCase()}1`;

describeWithLxc("lxc topology tests")(
  "lxc: topology keys and placement groups over a rack",
  { timeout: 180_000 },
  () => {
    let server: TestServer;
    let client: LxcClient;
    const lxc = (args: string[]): Promise<LxcRun> => client.lxc(args);
    const ok = (args: string[]): Promise<string> => client.ok(args);

    beforeAll(async () => {
      ({ server, client } = await startLxcCluster({
        members: MEMBERS.map((name) => ({ name, cpus: 16 })),
        images: [{ alias: "debian/12", fingerprint: FINGERPRINT }],
      }));
    });
    afterAll(async () => {
      await server?.close();
    });

    it("lxc cluster set writes topology keys and refuses a bad name with Berth's text", async () => {
      for (const name of MEMBERS) await ok(["cluster", "set", name, `topology.rack=${rackOf(name)}`]);
      expect(server.engine.members.get("b2").record.config).toEqual({ "topology.rack": "B1" });
      const bad = await lxc(["cluster", "set", "a1", "topology.Rack=A1"]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('invalid topology name "Rack"');
    });

    it("a strict spread group over rack puts lxc init's instances in three racks and refuses a fourth", async () => {
      const created = await server.call("POST", "/1.0/placement-groups", {
        name: "web",
        config: { policy: "spread", rigor: "strict", topology: "rack" },
      });
      expect(created.status).toBe(201);
      for (const name of ["w1", "w2", "w3"])
        await ok(["init", "debian/12", name, "-c", "placement.group=web"]);
      const racks = await Promise.all(
        ["w1", "w2", "w3"].map(async (name) =>
          rackOf((await server.engine.instances.get("default", name)).location),
        ),
      );
      expect(racks.sort()).toEqual(["A1", "B1", "C1"]);
      const fourth = await lxc(["init", "debian/12", "w4", "-c", "placement.group=web"]);
      expect(fourth.code).toBe(1);
      expect(fourth.stderr).toContain('placement group "web"');
      expect(fourth.stderr).toContain('topology key "rack"');
    });
  },
);
