/**
 * The real LXD client (`/usr/bin/lxc`, Debian's lxd-client, LXD 5.0.2)
 * against a real berthd over its Unix socket (`LXD_DIR=DIR lxc ...`, the
 * socket at DIR/unix.socket): every command of issue 18's list, checked by
 * what lxc prints and by what berthd then holds.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { TestServer } from "../testing/test-server.fixture.js";
import { describeWithLxc, LXC, type LxcClient, type LxcRun, startLxcCluster } from "./lxc-runner.fixture.js";

const FINGERPRINT = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";

/** Rejects "foo" the way the seed's example does, logs, and sends every other instance to node3. */
const SCRIPTLET = `
def instance_placement(request, candidate_members):
    if request.name == "foo":
        log_error("Invalid name supplied: ", request.name)
        return "Invalid name"
    log_info("placing ", request.name)
    for member in candidate_members:
        if member.server_name == "node3":
            set_target("node3")
    return
`;

// Each step runs the real client; a loaded 2-core machine needs more than the default per step.
describeWithLxc("lxc client tests")(
  "the real lxc client over berthd's Unix socket",
  { timeout: 180_000 },
  () => {
    let server: TestServer;
    let client: LxcClient;
    let lxdDir: string;

    const lxc = (args: string[], input?: string): Promise<LxcRun> => client.lxc(args, input);
    const ok = (args: string[], input?: string): Promise<string> => client.ok(args, input);

    const locationOf = async (name: string) => (await server.engine.instances.get("default", name)).location;

    beforeAll(async () => {
      ({ server, client } = await startLxcCluster({
        members: [
          { name: "node1", cpus: 16 },
          { name: "node2", cpus: 16 },
          { name: "node3", cpus: 32 },
        ],
        images: [{ alias: "ubuntu/24.04", fingerprint: FINGERPRINT }],
      }));
      lxdDir = client.lxdDir;
    });
    afterAll(async () => {
      await server?.close();
    });

    it("info: the server is a cluster with the extensions the client checks", async () => {
      const out = await ok(["info"]);
      expect(out).toContain("server_clustered: true");
      for (const extension of ["instances", "api_filtering", "container_full", "instance_get_full"])
        expect(out).toMatch(new RegExp(`- ${extension}\\n`));
    });

    it("cluster list and show", async () => {
      const list = await ok(["cluster", "list", "-f", "csv"]);
      expect(
        list
          .trim()
          .split("\n")
          .map((line) => line.split(",")[0]),
      ).toEqual(["node1", "node2", "node3"]);
      expect(list).toContain("ONLINE");
      expect(await ok(["cluster", "show", "node2"])).toMatch(/server_name: node2\n/);
    });

    it("cluster group create, assign and list", async () => {
      expect(await ok(["cluster", "group", "create", "fast"])).toContain("Cluster group fast created");
      await ok(["cluster", "group", "assign", "node2", "fast"]);
      // Every member stays in the `default` group (#15: it always exists and holds every member).
      expect(server.engine.members.get("node2").record.groups).toEqual(["default", "fast"]);
      expect(await ok(["cluster", "group", "list", "-f", "csv"])).toMatch(/^fast,,1$/m);
    });

    it("config set/get instances.placement.scriptlet", async () => {
      await ok(["config", "set", "instances.placement.scriptlet", SCRIPTLET]);
      expect(await ok(["config", "get", "instances.placement.scriptlet"])).toBe(`${SCRIPTLET}\n`);
    });

    it("init: the scriptlet chooses the member, and rejects a name with the seed's text", async () => {
      const created = await lxc(["init", "ubuntu/24.04", "c1"]);
      expect(created.code).toBe(0);
      expect(created.stdout).toContain("Creating c1");
      expect(await locationOf("c1")).toBe("node3");
      const refused = await lxc(["init", "ubuntu/24.04", "foo"]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        'Error: Failed instance creation: Failed instance placement scriptlet: Failed with return value: "Invalid name"\n',
      );
      await expect(server.engine.instances.get("default", "foo")).rejects.toThrow(/not found/);
    });

    it("init --target places on the named member", async () => {
      await ok(["init", "ubuntu/24.04", "t1", "--target", "node1"]);
      expect(await locationOf("t1")).toBe("node1");
    });

    it("list shows LOCATION and filters", async () => {
      expect(await ok(["list", "-c", "nL", "-f", "csv"])).toBe("c1,node3\nt1,node1\n");
      expect(await ok(["list", "location=node1", "-c", "n", "-f", "csv"])).toBe("t1\n");
      const table = await ok(["list"]);
      expect(table).toContain("LOCATION");
    });

    it("info NAME shows the instance and where it is", async () => {
      const out = await ok(["info", "c1"]);
      expect(out).toMatch(/^Name: c1$/m);
      expect(out).toMatch(/^Location: node3$/m);
    });

    it("config set NAME changes the instance's config", async () => {
      await ok(["config", "set", "c1", "limits.cpu=2"]);
      expect((await server.engine.instances.get("default", "c1")).config["limits.cpu"]).toBe("2");
      expect(await ok(["config", "get", "c1", "limits.cpu"])).toBe("2\n");
    });

    it("move --target and rename", async () => {
      await ok(["move", "c1", "--target", "node2"]);
      expect(await locationOf("c1")).toBe("node2");
      await ok(["rename", "c1", "c2"]);
      expect(await locationOf("c2")).toBe("node2");
    });

    it("cluster evacuate and restore really move the instances", async () => {
      await ok(["cluster", "evacuate", "node2", "--force"]);
      expect(await locationOf("c2")).not.toBe("node2");
      expect(await ok(["cluster", "list", "-f", "csv"])).toMatch(/^node2,.*EVACUATED/m);
      await ok(["cluster", "restore", "node2", "--force"]);
      expect(await locationOf("c2")).toBe("node2");
    });

    it("start is refused: Berth places instances and does not run them", async () => {
      const run = await lxc(["start", "c2"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Berth places instances and does not run them");
    });

    it("profile create, set, edit and delete", async () => {
      await ok(["profile", "create", "web"]);
      await ok(["profile", "set", "web", "limits.memory=2GiB"]);
      expect((await server.engine.catalog.getProfile("default", "web")).config).toEqual({
        "limits.memory": "2GiB",
      });
      await ok(["profile", "edit", "web"], "description: edited\nconfig:\n  limits.cpu: '4'\ndevices: {}\n");
      const edited = await server.engine.catalog.getProfile("default", "web");
      expect([edited.description, edited.config]).toEqual(["edited", { "limits.cpu": "4" }]);
      await ok(["profile", "delete", "web"]);
      await expect(server.engine.catalog.getProfile("default", "web")).rejects.toThrow(/not found/);
    });

    it("project create and rename", async () => {
      await ok(["project", "create", "team-a"]);
      expect(await ok(["project", "rename", "team-a", "team-b"])).toContain(
        "Project team-a renamed to team-b",
      );
      expect(await ok(["project", "list", "-f", "csv"])).toMatch(/^team-b,/m);
    });

    it("image list and alias create by fingerprint prefix", async () => {
      expect(await ok(["image", "list", "-f", "csv"])).toContain(`ubuntu/24.04,${FINGERPRINT.slice(0, 12)}`);
      await ok(["image", "alias", "create", "noble", FINGERPRINT.slice(0, 8)]);
      expect((await server.engine.catalog.getImage(FINGERPRINT)).aliases).toContain("noble");
      expect(await ok(["image", "alias", "list", "-f", "csv"])).toMatch(/^noble,/m);
    });

    it("operation list shows what the client's requests did", async () => {
      const out = await ok(["operation", "list", "-f", "csv"]);
      expect(out).toMatch(/,TASK,Creating instance,SUCCESS,/);
      expect(out).toMatch(/,TASK,Creating instance,FAILURE,/);
      expect(out).toMatch(/,TASK,Migrating instance,SUCCESS,/);
    });

    it("monitor streams lifecycle, logging and operation events", async () => {
      const child: ChildProcess = spawn(LXC, ["monitor", "--format", "json"], {
        env: { PATH: process.env.PATH ?? "", HOME: lxdDir, LXD_DIR: lxdDir, LXD_CONF: join(lxdDir, "conf") },
      });
      const events: Record<string, unknown>[] = [];
      let buffered = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        buffered += chunk.toString("utf8");
        for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
          const line = buffered.slice(0, end).trim();
          buffered = buffered.slice(end + 1);
          if (line !== "") events.push(JSON.parse(line));
        }
      });
      const created: string[] = [];
      try {
        // The monitor connects at its own pace: create instances until it reports one (and its log line).
        for (let i = 0; i < 60 && !events.some((event) => event.type === "lifecycle"); i++) {
          created.push(`m${i}`);
          await ok(["init", "ubuntu/24.04", `m${i}`]);
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        await waitFor(() => events.some((event) => event.type === "logging"), 30_000);
      } finally {
        child.kill();
      }
      const lifecycle = events.find((event) => event.type === "lifecycle") as {
        metadata: { action: string; source: string; context: Record<string, string> };
      };
      const name = lifecycle.metadata.source.replace("/1.0/instances/", "");
      expect(created).toContain(name);
      expect(lifecycle.metadata).toMatchObject({
        action: "instance-created",
        context: { location: "node3", decided_by: "scriptlet" },
      });
      const logLine = events.find((event) => event.type === "logging") as { metadata: { message: string } };
      expect(logLine.metadata.message).toBe(`Instance placement scriptlet: placing ${name}`);
      expect(events.some((event) => event.type === "operation")).toBe(true);
      for (const one of created) await ok(["delete", one]);
    });

    it("delete", async () => {
      await ok(["delete", "c2"]);
      await expect(server.engine.instances.get("default", "c2")).rejects.toThrow(/not found/);
    });
  },
);

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
