import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../exit-codes.js";
import {
  cliChecks,
  MEMBER_STATE_YAML,
  type RunningBerthd,
  startBerthd,
  writeTemp,
} from "../testing/berth.fixture.js";
import { IMAGE } from "../testing/cluster.fixture.js";

/**
 * The built `berth` against a real `berthd` on a temp database: the server
 * config, member, group, inventory and catalog commands, each success and its
 * main error, checking output and exit code. The instance commands run in
 * `instances.e2e.test.ts` against their own berthd, so the two files run side by side.
 */
let server: RunningBerthd;
const { ok, fails } = cliChecks(() => server);

beforeAll(async () => {
  server = await startBerthd();
});

afterAll(async () => {
  await server?.stop();
});

// Every step spawns real processes; a loaded 2-core machine needs more than the default 30 s per step.
describe("berth against berthd: cluster and catalog", { timeout: 180_000 }, () => {
  it("sets server config and reads it back", async () => {
    await ok(["config", "set", "cluster.offline_threshold", "86400"]);
    expect(await ok(["config", "get", "cluster.offline_threshold"])).toBe("86400\n");
    expect(await ok(["config", "show"])).toContain('cluster.offline_threshold: "86400"');
    await fails(
      ["config", "set", "cluster.offline_threshold", "5"],
      ExitCode.failed,
      /^Error: .*cluster\.offline_threshold/,
    );
    await fails(["config", "set", "only-key"], ExitCode.usage, /missing required argument 'value'/);
  });

  it("adds members, groups, heartbeats and inventories", async () => {
    await ok(["cluster", "group", "create", "rack-a", "--description", "Rack A"]);
    expect(
      await ok(["cluster", "add", "node1", "--arch", "x86_64", "--failure-domain", "rack-a", "-g", "rack-a"]),
    ).toBe("Member node1 added\n");
    // Join order is the listing order (and the scriptlet's tie order): node2 strictly before node3.
    await Promise.all([
      ok(["cluster", "add", "node2", "--arch", "x86_64", "--failure-domain", "rack-b"]),
      fails(["cluster", "add", "node1"], ExitCode.conflict, /^Error: /),
    ]);
    await ok(["cluster", "add", "node3", "--arch", "x86_64", "--failure-domain", "rack-b"]);
    const state = writeTemp(server, "state.yaml", MEMBER_STATE_YAML);
    // Members are independent; one member's inventories go one after another (each PUT bumps its generation).
    await Promise.all(
      ["node1", "node2", "node3"].map(async (member) => {
        await ok(["cluster", "report", member, "--state", state]);
        await ok(["cluster", "inventory", "set", member, "VCPU", "8", "--allocation-ratio", "2"]);
        await ok(["cluster", "inventory", "set", member, "MEMORY_MB", "16384"]);
        await ok(["cluster", "inventory", "set", member, "DISK_GB", "200"]);
      }),
    );
    await Promise.all([
      fails(["cluster", "report", "ghost", "--state", state], ExitCode.notFound, /^Error: /),
      fails(
        ["cluster", "inventory", "set", "node1", "VCPU", "many"],
        ExitCode.usage,
        'Error: Invalid total "many": expected a whole number\n',
      ),
    ]);
    await ok(["cluster", "group", "assign", "node2", "rack-a"]);
    // LXD's default group holds every member.
    expect(await ok(["cluster", "group", "list", "--format", "csv"])).toBe(
      'default,Default cluster group,"node1,node2,node3"\nrack-a,Rack A,"node1,node2"\n',
    );
    expect(await ok(["cluster", "group", "show", "rack-a"])).toContain("name: rack-a");
    await fails(["cluster", "group", "show", "nope"], ExitCode.notFound, /^Error: /);
    await ok(["cluster", "group", "create", "tmp"]);
    await ok(["cluster", "group", "rename", "tmp", "tmp2"]);
    await ok(["cluster", "group", "delete", "tmp2"]);
    await fails(["cluster", "group", "delete", "tmp2"], ExitCode.notFound, /^Error: /);
  });

  it("lists members with their fill per class", async () => {
    const [table, csv, jsonText, shown, inventory] = await Promise.all([
      ok(["cluster", "list"]),
      ok(["cluster", "list", "--format", "csv", "--class", "VCPU"]),
      ok(["cluster", "list", "--format", "json"]),
      ok(["cluster", "show", "node1"]),
      ok(["cluster", "inventory", "list", "node1", "--format", "csv"]),
      fails(["cluster", "show", "ghost"], ExitCode.notFound, /^Error: /),
    ]);
    expect(table).toContain("| NAME  | STATUS | ARCH   | DOMAIN | GROUPS         | VCPU");
    expect(table).toMatch(
      /\| node1 \| ONLINE \| x86_64 \| rack-a \| default,rack-a \| ░░░░░░░░ {3}0% 0\/16 +\| ░░░░░░░░ {3}0% 0B\/16\.00GiB/,
    );
    expect(table).not.toContain("\x1b[");
    expect(csv).toBe(
      'node1,Online,x86_64,rack-a,"default,rack-a",0/16\nnode2,Online,x86_64,rack-b,"default,rack-a",0/16\nnode3,Online,x86_64,rack-b,default,0/16\n',
    );
    const json = JSON.parse(jsonText) as {
      server_name: string;
      usage: Record<string, { capacity: number }>;
    }[];
    expect(json.map((m) => [m.server_name, m.usage.MEMORY_MB?.capacity])).toEqual([
      ["node1", 16384],
      ["node2", 16384],
      ["node3", 16384],
    ]);
    expect(shown).toContain("server_name: node1");
    expect(inventory).toContain("VCPU,8,0,2,16,0,0,explicit\n");
  });

  it("manages the catalog: images, flavors, profiles, projects, placement groups, resource classes", async () => {
    // The families are independent of each other: each runs its own sequence, all at once.
    await Promise.all([
      (async () => {
        expect(await ok(["image", "create", IMAGE, "--arch", "x86_64", "--alias", "ubuntu/jammy"])).toBe(
          "Image 5b1e8f3c1a9d created\n",
        );
        expect(await ok(["image", "list", "--format", "csv"])).toBe(
          `ubuntu/jammy,${IMAGE},container,x86_64,\n`,
        );
        expect(await ok(["image", "alias", "list", "--format", "csv"])).toBe(
          `ubuntu/jammy,${IMAGE},container,\n`,
        );
        await fails(["image", "create", "xyz", "--arch", "x86_64"], ExitCode.failed, /^Error: /);
      })(),
      (async () => {
        expect(
          await ok(["flavor", "create", "m1.small", "--vcpus", "1", "--memory", "2GiB", "--disk", "20"]),
        ).toBe("Flavor m1.small created\n");
        await ok(["flavor", "create", "huge", "--vcpus", "64", "--memory", "512GiB"]);
        await fails(
          ["flavor", "create", "m1.small", "--vcpus", "1", "--memory", "1024"],
          ExitCode.conflict,
          /^Error: /,
        );
        expect(await ok(["flavor", "list"])).toMatch(/\| m1\.small \| 1 +\| 2\.00GiB +\| 20\.00GiB +\|/);
        expect(await ok(["flavor", "list", "--format", "csv"])).toContain("m1.small,1,2048,20,,\n");
        await ok(["flavor", "set", "m1.small", "hw:cpu_policy=shared"]);
        expect(await ok(["flavor", "show", "m1.small", "--format", "json"])).toContain(
          '"hw:cpu_policy": "shared"',
        );
        await ok(["flavor", "unset", "m1.small", "hw:cpu_policy"]);
        await fails(
          ["flavor", "unset", "m1.small", "hw:cpu_policy"],
          ExitCode.notFound,
          'Error: Flavor "m1.small" has no extra spec "hw:cpu_policy"\n',
        );
      })(),
      (async () => {
        expect(await ok(["profile", "create", "small", "-c", "limits.cpu=1"])).toBe(
          "Profile small created\n",
        );
        await ok(["profile", "set", "small", "limits.memory", "1GiB"]);
        expect(await ok(["profile", "show", "small"])).toContain("limits.memory: 1GiB");
        await ok(["profile", "unset", "small", "limits.memory"]);
        await ok([
          "profile",
          "device",
          "add",
          "small",
          "root",
          "disk",
          "path=/",
          "pool=default",
          "size=8GiB",
        ]);
        expect(await ok(["profile", "device", "list", "small", "--format", "csv"])).toBe(
          'root,disk,"path=/, pool=default, size=8GiB"\n',
        );
        await fails(
          ["profile", "device", "add", "small", "root", "disk"],
          ExitCode.conflict,
          /already has a device "root"/,
        );
        await ok(["profile", "device", "remove", "small", "root"]);
        await fails(
          ["profile", "device", "remove", "small", "root"],
          ExitCode.notFound,
          /has no device "root"/,
        );
        await ok(["profile", "rename", "small", "tiny"]);
        expect(await ok(["profile", "list", "--format", "csv"])).toContain("tiny,,0\n");
        await fails(["profile", "show", "small"], ExitCode.notFound, /^Error: /);
        await ok(["profile", "delete", "tiny"]);
        await fails(["profile", "delete", "tiny"], ExitCode.notFound, /^Error: /);
      })(),
      (async () => {
        expect(await ok(["project", "create", "team-a", "-c", "limits.instances=1"])).toBe(
          "Project team-a created\n",
        );
        await ok(["project", "set", "team-a", "limits.instances", "2"]);
        expect(await ok(["project", "list", "--format", "csv"])).toContain("team-a,,instances=2,0\n");
        await fails(["project", "create", "team-a"], ExitCode.conflict, /^Error: /);
        await ok(["project", "create", "team-b"]);
        await ok(["project", "rename", "team-b", "team-c"]);
        await fails(["project", "show", "team-b"], ExitCode.notFound, /^Error: /);
        await ok(["project", "delete", "team-c"]);
      })(),
      (async () => {
        expect(await ok(["placement-group", "create", "db", "--policy", "spread"])).toBe(
          "Placement group db created\n",
        );
        expect(await ok(["placement-group", "list", "--format", "csv"])).toBe("db,spread,strict,member,0,\n");
        // LXD's key=value style, with Berth's topology key; set/unset change one config key.
        expect(
          await ok(["placement-group", "create", "web", "policy=spread", "rigor=strict", "topology=rack"]),
        ).toBe("Placement group web created\n");
        await ok(["placement-group", "set", "web", "rigor", "permissive"]);
        await ok(["placement-group", "unset", "web", "topology"]);
        await ok(["placement-group", "set", "web", "topology", "failure_domain"]);
        expect(await ok(["placement-group", "list", "--format", "csv"])).toContain(
          "web,spread,permissive,failure_domain,0,\n",
        );
        await fails(
          ["placement-group", "create", "x", "policy=spread"],
          ExitCode.failed,
          'Error: Missing required config key: "rigor"\n',
        );
        await fails(
          ["placement-group", "create", "x", "--policy", "compact", "policy=spread", "rigor=strict"],
          ExitCode.failed,
          /given twice with different values/,
        );
        await ok(["placement-group", "delete", "web"]);
        await ok(["placement-group", "rename", "db", "db2"]);
        expect(await ok(["placement-group", "show", "db2"])).toContain("policy: spread");
        await ok(["placement-group", "rename", "db2", "db"]);
        await fails(
          ["placement-group", "create", "x", "--policy", "random"],
          ExitCode.usage,
          'Error: Invalid --policy "random": expected spread or compact\n',
        );
      })(),
      (async () => {
        expect(await ok(["resource-class", "create", "CUSTOM_GPU"])).toBe(
          "Resource class CUSTOM_GPU created\n",
        );
        expect(await ok(["resource-class", "list", "--format", "csv"])).toContain("CUSTOM_GPU,custom\n");
        await fails(["resource-class", "create", "GPU"], ExitCode.failed, /^Error: /);
        await ok(["resource-class", "delete", "CUSTOM_GPU"]);
        await fails(["resource-class", "delete", "CUSTOM_GPU"], ExitCode.notFound, /^Error: /);
      })(),
    ]);
  });

  it("edits members and removes them", async () => {
    await ok(["cluster", "set", "node3", "user.rack", "r12"]);
    await ok(["cluster", "set", "node3", "topology.rack", "C1"]);
    expect(await ok(["cluster", "show", "node3", "--format", "json"])).toContain('"topology.rack": "C1"');
    await fails(
      ["cluster", "set", "node3", "topology.Rack", "C1"],
      ExitCode.failed,
      /invalid topology name "Rack"/,
    );
    await ok(["cluster", "unset", "node3", "topology.rack"]);
    expect(await ok(["cluster", "show", "node3", "--format", "json"])).toContain('"user.rack": "r12"');
    await ok(["cluster", "unset", "node3", "user.rack"]);
    await fails(["cluster", "set", "node3", "bogus.key", "1"], ExitCode.failed, /^Error: /);
    await ok(["cluster", "inventory", "unset", "node3", "DISK_GB"]);
    await ok(["cluster", "add", "spare0"]);
    await ok(["cluster", "rename", "spare0", "spare"]);
    await fails(["cluster", "rename", "node1", "node2"], ExitCode.conflict, /^Error: /);
    expect(await ok(["cluster", "remove", "spare"])).toBe("Member spare removed\n");
    await fails(["cluster", "remove", "spare"], ExitCode.notFound, /^Error: /);
  });
});
