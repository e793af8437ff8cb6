/**
 * Issue #35's second part with the real LXD client (`/usr/bin/lxc`, LXD
 * 5.0.2) against a real berthd: config typos refused with LXD's text,
 * `lxc copy` placed like a new instance (scriptlet included), and the
 * `warnings` API read and edited with `lxc warning`.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { TestServer } from "../testing/test-server.fixture.js";
import { describeWithLxc, type LxcClient, type LxcRun, startLxcCluster } from "./lxc-runner.fixture.js";

const FINGERPRINT = "b1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";

/** Sends every instance named like a copy to node2, everything else to node1. */
const SCRIPTLET = `
def instance_placement(request, candidate_members):
    log_info("placing ", request.name, " from ", request.reason)
    wanted = "node2" if request.name.endswith("copy") else "node1"
    for member in candidate_members:
        if member.server_name == wanted:
            set_target(wanted)
    return
`;

/** Fails every run (a division by zero), never at load. */
const FAILING_SCRIPTLET = "def instance_placement(request, candidate_members):\n    return 1 // 0\n";

describeWithLxc("lxc day-two tests")(
  "lxc day two: config keys, copies, warnings",
  { timeout: 180_000 },
  () => {
    let server: TestServer;
    let client: LxcClient;
    const lxc = (args: string[], input?: string): Promise<LxcRun> => client.lxc(args, input);
    const ok = (args: string[], input?: string): Promise<string> => client.ok(args, input);

    const locationOf = async (name: string) => (await server.engine.instances.get("default", name)).location;

    beforeAll(async () => {
      ({ server, client } = await startLxcCluster({
        members: [
          { name: "node1", cpus: 16 },
          { name: "node2", cpus: 16 },
        ],
        images: [{ alias: "debian/12", fingerprint: FINGERPRINT }],
      }));
    });
    afterAll(async () => {
      await server?.close();
    });

    it("refuses a typo in a config key with LXD's text, and places nothing", async () => {
      for (const [key, value] of [
        ["limits.cpuz", "2"],
        ["foo.bar", "1"],
      ]) {
        const run = await lxc(["init", "debian/12", "typo", "-c", `${key}=${value}`]);
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(`Unknown configuration key: ${key}`);
      }
      const bad = await lxc(["init", "debian/12", "typo", "-c", "security.nesting=maybe"]);
      expect(bad.stderr).toContain(
        'Invalid value for config "security.nesting": Invalid value for a boolean "maybe"',
      );
      expect(await ok(["list", "-f", "csv", "-c", "n"])).not.toContain("typo");
      const profile = await lxc(["profile", "set", "default", "limits.cpuz", "2"]);
      expect(profile.code).toBe(1);
      expect(profile.stderr).toContain("Unknown configuration key: limits.cpuz");
      await ok([
        "init",
        "debian/12",
        "fine",
        "-c",
        "user.owner=ops",
        "-c",
        "environment.TZ=UTC",
        "-c",
        "limits.cpu=2",
      ]);
      expect(await locationOf("fine")).toBe("node1");
    });

    it("lxc copy places the copy like a new instance, scriptlet included; --target checks the member", async () => {
      await ok(["config", "set", "instances.placement.scriptlet", SCRIPTLET]);
      await ok(["init", "debian/12", "w1", "-c", "limits.cpu=2", "-c", "user.role=web"]);
      expect(await locationOf("w1")).toBe("node1");
      await ok(["copy", "w1", "w1copy"]);
      const copy = await server.engine.instances.get("default", "w1copy");
      expect(copy.location).toBe("node2");
      expect(copy.config["user.role"]).toBe("web");
      expect(copy.config["limits.cpu"]).toBe("2");
      await ok(["copy", "w1", "w1pinned", "--target", "node1"]);
      expect(await locationOf("w1pinned")).toBe("node1");
      const nowhere = await lxc(["copy", "w1", "w1lost", "--target", "node9"]);
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toContain("node9");
      const missing = await lxc(["copy", "nosuch", "nosuchcopy"]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(`Instance "nosuch" not found in project "default"`);
      // A client that skips lxc's own lookup gets the same answer from the create.
      const direct = await server.call("POST", "/1.0/instances", {
        name: "ghostcopy",
        source: { type: "copy", source: "ghost/snap0" },
      });
      expect(direct.status).toBe(404);
      expect(direct.body.error).toBe(`Instance "ghost" not found in project "default"`);
    });

    it("lxc warning list/show/ack/delete: a scriptlet that fails to run, an inventory below usage", async () => {
      await ok(["config", "set", "instances.placement.scriptlet", FAILING_SCRIPTLET]);
      const failed = await lxc(["init", "debian/12", "doomed"]);
      expect(failed.code).toBe(1);
      await ok(["config", "set", "instances.placement.scriptlet", SCRIPTLET]);
      // node1 holds w1 and w1pinned (2 VCPU each): shrink its VCPU inventory below that.
      const member = server.engine.members.get("node1");
      await server.engine.members.setInventories(
        "node1",
        { VCPU: { total: 1, allocation_ratio: 1 } },
        member.record.generation,
      );

      const list = await ok(["warning", "list", "-f", "csv"]);
      expect(list).toContain("Placement scriptlet failed to run");
      expect(list).toContain("Inventory below usage");
      const warnings = (await server.call("GET", "/1.0/warnings?recursion=1")).body.metadata as {
        uuid: string;
        type: string;
        status: string;
      }[];
      const below = warnings.find((one) => one.type === "Inventory below usage");
      expect(below?.status).toBe("new");
      const uuid = below?.uuid as string;
      const shown = await ok(["warning", "show", uuid]);
      expect(shown).toContain("entity_url: /1.0/cluster/members/node1/inventories/VCPU");
      expect(shown).toContain("status: new");
      await ok(["warning", "ack", uuid]);
      expect(await ok(["warning", "show", uuid])).toContain("status: acknowledged");
      await ok(["warning", "delete", uuid]);
      const gone = await lxc(["warning", "show", uuid]);
      expect(gone.code).toBe(1);
      expect(gone.stderr).toContain("Warning not found");
      // Its condition still holds: it comes back, new, under a new UUID.
      const again = (await server.call("GET", "/1.0/warnings?recursion=1")).body.metadata as {
        uuid: string;
        type: string;
        status: string;
      }[];
      const back = again.find((one) => one.type === "Inventory below usage");
      expect(back?.status).toBe("new");
      expect(back?.uuid).not.toBe(uuid);
    });

    it("a failed scriptlet run is filed under its project: lxc warning list --project shows that project's", async () => {
      await ok(["project", "create", "blue"]);
      await ok(["config", "set", "instances.placement.scriptlet", FAILING_SCRIPTLET]);
      const failed = await lxc(["init", "debian/12", "doomed", "--project", "blue"]);
      expect(failed.code).toBe(1);
      await ok(["config", "set", "instances.placement.scriptlet", SCRIPTLET]);
      const blue = await ok(["warning", "list", "--project", "blue", "-f", "csv", "-c", "tp"]);
      expect(blue.trim().split("\n")).toEqual(["Placement scriptlet failed to run,blue"]);
      // Without --project: every project's, and the cluster's (members, inventories).
      const all = await ok(["warning", "list", "-f", "csv", "-c", "tp"]);
      expect(all).toContain("Placement scriptlet failed to run,blue");
      expect(all).toContain("Placement scriptlet failed to run,default");
      expect(all).toContain("Inventory below usage,");
    });
  },
);
