/**
 * `source.type=migration` with the real LXD client (`/usr/bin/lxc`, LXD
 * 5.0.2). The command that sends it is `lxc copy` (or `lxc move`) from
 * another LXD server to berthd: in pull mode, the default, lxc asks the
 * source for a migration operation (`POST /1.0/instances/NAME` with
 * `{"migration": true}`), then sends berthd `POST /1.0/instances` with
 * `source: {type: "migration", mode: "pull", operation, certificate,
 * secrets, base-image}`. The source here is a stand-in for that LXD
 * server (lxd-source.fixture.ts): Berth places the instance and never
 * opens the source's websockets, so nothing else of LXD is needed.
 */
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { TestServer } from "../testing/test-server.fixture.js";
import { describeWithLxc, type LxcClient, type LxcRun, startLxcCluster } from "./lxc-runner.fixture.js";
import { type LxdSource, startLxdSource } from "./lxd-source.fixture.js";

/** Logs what the scriptlet is told of the source; sends every migrated instance to node2. */
const SCRIPTLET = `
def instance_placement(request, candidate_members):
    log_info("placing ", request.name, " from source ", request.source.type, " ", request.source.mode)
    if request.source.type == "migration":
        set_target("node2")
    return
`;

describeWithLxc("lxc migration tests")(
  "lxc copy from another LXD server sends source.type=migration, which berthd places",
  { timeout: 180_000 },
  () => {
    let server: TestServer;
    let client: LxcClient;
    let source: LxdSource;
    const lxc = (args: string[]): Promise<LxcRun> => client.lxc(args);
    const ok = (args: string[]): Promise<string> => client.ok(args);
    const vcpuUsed = async (member: string) =>
      (await server.call("GET", `/1.0/cluster/members/${member}/inventories`)).body.metadata.inventories.VCPU
        .used;

    beforeAll(async () => {
      ({ server, client } = await startLxcCluster({
        members: [
          { name: "node1", cpus: 16 },
          { name: "node2", cpus: 16 },
          { name: "node3", cpus: 2 },
        ],
      }));
      source = await startLxdSource(join(server.dir, "source"), [
        { name: "web", config: { "limits.cpu": "4", "user.role": "web", "volatile.base_image": "abc123" } },
        { name: "huge", config: { "limits.cpu": "64" } },
      ]);
      // As an operator adds another LXD server (it answers trusted: no token needed).
      await ok(["remote", "add", "old", source.url, "--accept-certificate"]);
      await ok(["config", "set", "instances.placement.scriptlet", SCRIPTLET]);
    });
    afterAll(async () => {
      await server?.close();
      await source?.close();
    });

    it("places the migrated instance like a new one, scriptlet included, and counts its limits", async () => {
      await ok(["copy", "old:web", "local:web"]);
      // lxc asked the source for a migration (pull mode), never for the data itself.
      expect(source.requests).toContainEqual(
        expect.objectContaining({
          method: "POST",
          path: "/1.0/instances/web",
          body: expect.objectContaining({ migration: true, live: false }),
        }),
      );
      const placed = await server.engine.instances.get("default", "web");
      expect(placed.location).toBe("node2");
      expect(placed.config).toMatchObject({ "limits.cpu": "4", "user.role": "web" });
      expect(await vcpuUsed("node2")).toBe(4);
      expect(JSON.stringify(server.logs)).toContain("placing web from source migration pull");
      expect(await ok(["list", "-c", "nL", "-f", "csv"])).toContain("web,node2");
    });

    it("--target names the member, with a create's checks; a cluster without room answers 507", async () => {
      await ok(["copy", "old:web", "local:pinned", "--target", "node1"]);
      expect((await server.engine.instances.get("default", "pinned")).location).toBe("node1");
      const nowhere = await lxc(["copy", "old:web", "local:lost", "--target", "node9"]);
      expect(nowhere.code).toBe(1);
      expect(nowhere.stderr).toContain("node9");
      const small = await lxc(["copy", "old:web", "local:cramped", "--target", "node3"]);
      expect(small.code).toBe(1);
      expect(small.stderr).toContain("node3");
      const full = await lxc(["copy", "old:huge", "local:huge"]);
      expect(full.code).toBe(1);
      expect(full.stderr).toContain("VCPU");
      expect(await ok(["list", "-c", "n", "-f", "csv"])).not.toMatch(/^(lost|cramped|huge)$/m);
    });

    it("push and relay modes need container_push, which berthd does not offer: lxc refuses before sending", async () => {
      for (const mode of ["push", "relay"]) {
        const run = await lxc(["copy", "old:web", `local:web${mode}`, `--mode=${mode}`]);
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(
          'The target server is missing the required "container_push" API extension',
        );
      }
    });

    it("berthd as the source of a migration says it holds no instance data", async () => {
      // Over the Unix socket lxc stops first: a source must listen on the network.
      const local = await lxc(["copy", "local:web", "old:back"]);
      expect(local.code).toBe(1);
      expect(local.stderr).toContain("The source server isn't listening on the network");
      // Over HTTPS it asks berthd for a migration operation with this body (lxc 5.0.2, seen with --debug).
      const asked = await server.call("POST", "/1.0/instances/web", {
        name: "",
        migration: true,
        live: false,
        instance_only: false,
        container_only: false,
        target: null,
        pool: "",
        project: "",
        allow_inconsistent: false,
      });
      expect(asked.status).toBe(400);
      expect(asked.body.error).toBe(
        "Migrating an instance out of Berth is not supported: Berth places instances and holds none of their data; copy or move it from the LXD member that runs it",
      );
      // The cluster move lxc sends with --target is still a move.
      await ok(["move", "web", "--target", "node1"]);
      expect((await server.engine.instances.get("default", "web")).location).toBe("node1");
    });

    it("the wire, literally: the body lxc sent, over plain HTTP, is placed the same way", async () => {
      // What lxc 5.0.2 sent berthd for `lxc copy old:web local:web` (seen with --debug).
      const body = {
        architecture: "x86_64",
        config: { "limits.cpu": "4", "user.role": "web", "volatile.base_image": "abc123" },
        devices: {},
        ephemeral: false,
        profiles: ["default"],
        stateful: false,
        description: "",
        name: "wired",
        source: {
          type: "migration",
          certificate: "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
          "base-image": "abc123",
          mode: "pull",
          operation: `${source.url}/1.0/operations/2654ddd5-f1f5-4210-be6b-025032514d16`,
          secrets: { control: "ad60e10d", fs: "bc803d15" },
          allow_inconsistent: false,
        },
        instance_type: "",
        type: "container",
      };
      const created = await server.call("POST", "/1.0/instances?target=node1", body);
      expect(created.status).toBe(201);
      expect((await server.engine.instances.get("default", "wired")).location).toBe("node1");
      const unknown = await server.call("POST", "/1.0/instances", {
        ...body,
        name: "wired2",
        source: { ...body.source, type: "teleport" },
      });
      expect(unknown.status).toBe(400);
    });
  },
);
