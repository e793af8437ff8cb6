import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { BerthApi } from "@berth/client/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRY_RUN_SOURCE_EXTENSION } from "../commands/scriptlet.js";
import { ExitCode } from "../exit-codes.js";
import {
  BERTHD,
  berth,
  cliChecks,
  type RunningBerthd,
  runProcess,
  startBerthd,
  writeTemp,
} from "../testing/berth.fixture.js";
import { seedCluster } from "../testing/cluster.fixture.js";

/**
 * The built `berth` against a real `berthd` on a temp database: the instance,
 * reservation, bulk, scriptlet, completion, evacuation and remote commands, on
 * the cluster `cli.e2e.test.ts` builds with the CLI (seeded here through the API).
 */
let server: RunningBerthd;
const { ok, fails } = cliChecks(() => server);

/** The seed document's example scriptlet (LXD spec LX033), verbatim in behaviour. */
const SEED_SCRIPTLET = `def instance_placement(request, candidate_members):
        log_info("instance_placement started: ", request)

        if request.name == "foo":
                log_error("Invalid name supplied: ", request.name)
                return "Invalid name"

        set_target(candidate_members[0].server_name)
        return # No error
`;

beforeAll(async () => {
  server = await startBerthd();
  await seedCluster(server);
});

afterAll(async () => {
  await server?.stop();
});

// Every step spawns real processes; a loaded 2-core machine needs more than the default 30 s per step.
describe("berth against berthd: instances", { timeout: 180_000 }, () => {
  it("creates, shows, lists, moves, renames and deletes instances", async () => {
    const created = await ok(["init", "ubuntu/jammy", "web1", "--flavor", "m1.small"]);
    expect(created).toMatch(/^Creating web1\nPlaced web1 on node[123]\n$/);
    expect(await ok(["launch", "ubuntu/jammy", "web2", "--flavor", "m1.small", "--target", "node3"])).toBe(
      "Launching web2\nPlaced web2 on node3\n",
    );
    const info = await ok(["info", "web2"]);
    expect(info).toContain("Name: web2\n");
    expect(info).toContain("Location: node3\n");
    expect(info).toContain("Flavor: m1.small\n");
    const csv = await ok(["list", "--format", "csv"]);
    expect(csv).toMatch(
      /^web1,\w+,container,node[123],m1\.small,[0-9a-f-]{36}\nweb2,\w+,container,node3,m1\.small,[0-9a-f-]{36}\n$/,
    );
    expect(await ok(["list", "location=node3", "--format", "csv"])).toMatch(/^web2,/);
    expect(JSON.parse(await ok(["list", "--format", "json"]))).toHaveLength(2);
    expect(await ok(["list", "--format", "yaml"])).toContain("- name: web1");
    expect(await ok(["list", "--format", "compact"])).toMatch(
      /^NAME +STATUS +TYPE +LOCATION +FLAVOR +UUID\nweb1 /,
    );
    expect(await ok(["move", "web2", "--target", "node1"])).toBe("Moved web2 to node1\n");
    await ok(["move", "web2", "web3"]);
    await Promise.all([
      fails(["info", "web2"], ExitCode.notFound, /^Error: /),
      fails(["move", "web3"], ExitCode.usage, "Error: Missing --target: where should the instance go?\n"),
      fails(["init", "ubuntu/jammy", "web1"], ExitCode.conflict, /^Error: Failed instance creation: /),
      fails(
        ["init", "ubuntu/jammy", "big", "--flavor", "huge"],
        ExitCode.capacity,
        /^Error: Failed instance creation: /,
      ),
      fails(
        ["init", "ubuntu/jammy", "x", "--flavor", "nosuch"],
        ExitCode.notFound,
        /^Error: Failed instance creation: /,
      ),
    ]);
    // --project scopes the call: team-a has none of these instances, an unknown project is not found.
    const [teamA] = await Promise.all([
      ok(["--project", "team-a", "list", "--format", "csv"]),
      fails(["--project", "nosuch", "list"], ExitCode.notFound, /^Error: /),
    ]);
    expect(teamA).toBe("");
    await ok(["delete", "web3"]);
    await fails(["delete", "web3"], ExitCode.notFound, /^Error: /);
    // The CLI went through berthd's operations (its client waits on them), refusals included.
    const operations = (await new BerthApi({ socketPath: server.socket }).request("listOperations", {
      query: { recursion: 1 },
    })) as Record<string, { description: string; err: string }[]>;
    const descriptions = Object.values(operations)
      .flat()
      .map((one) => one.description);
    expect(descriptions).toEqual(
      expect.arrayContaining(["Creating instance", "Migrating instance", "Deleting instance"]),
    );
    expect(operations.failure?.map((one) => one.err)).toContainEqual(
      expect.stringMatching(/^Failed instance creation: Instance "web1" already exists/),
    );
  });

  it("refuses a name with the seed scriptlet, exactly as the seed document shows", async () => {
    await ok(["config", "set", "instances.placement.scriptlet", SEED_SCRIPTLET]);
    const result = await berth(server, ["init", "ubuntu/jammy", "foo"]);
    expect(result.stdout).toBe("Creating foo\n");
    expect(result.stderr).toBe(
      'Error: Failed instance creation: Failed instance placement scriptlet: Failed with return value: "Invalid name"\n',
    );
    expect(result.code).toBe(ExitCode.failed);
    // Every other name goes where the scriptlet says: the first candidate.
    expect(await ok(["init", "ubuntu/jammy", "bar"])).toMatch(/^Creating bar\nPlaced bar on node\d\n$/);
    await fails(
      ["config", "set", "instances.placement.scriptlet", "def f(:"],
      ExitCode.failed,
      /^Error: .*instance_placement:1:/,
    );
    await ok(["config", "unset", "instances.placement.scriptlet"]);
    expect(await ok(["config", "get", "instances.placement.scriptlet"])).toBe("\n");
  });

  it("checks scriptlet files locally with file:line:col errors", async () => {
    const path = writeTemp(server, "placement.star", SEED_SCRIPTLET);
    expect(await ok(["scriptlet", "check", path])).toBe(`${path}: OK\n`);
    const broken = writeTemp(
      server,
      "broken.star",
      "def instance_placement(request, candidate_members):\n    return nope\n",
    );
    await fails(["scriptlet", "check", broken], ExitCode.failed, `Error: ${broken}:2:12: undefined: nope\n`);
    await fails(["scriptlet", "check", `${path}.missing`], ExitCode.usage, /^Error: Cannot read scriptlet /);
  });

  it("reserves capacity and commits it", async () => {
    const reserved = await ok(["reserve", "db1", "--flavor", "m1.small", "--target", "node2"]);
    expect(reserved).toMatch(/^Reserving db1\nReserved db1 on node2 \(uuid [0-9a-f-]{36}\)\n$/);
    expect(await ok(["list", "db1", "--format", "csv"])).toMatch(/^db1,RESERVED,/);
    expect(await ok(["commit", "db1"])).toBe("Committed db1 on node2\n");
    await fails(["commit", "db1"], ExitCode.conflict, /^Error: /);
    await fails(["commit", "nothing"], ExitCode.notFound, /^Error: /);
    const unnamed = await ok(["reserve", "--flavor", "m1.small"]);
    const match = /^Reserving the instance\nReserved capacity on (node\d) \(uuid ([0-9a-f-]{36})\)\n$/.exec(
      unnamed,
    );
    expect(match).not.toBeNull();
    const [, member, uuid] = match as RegExpExecArray;
    await fails(["commit", uuid as string], ExitCode.failed, /^Error: .*name/);
    expect(await ok(["commit", uuid as string, "--name", "db2"])).toBe(`Committed db2 on ${member}\n`);
  });

  it("creates a batch all-or-nothing and says where each instance went", async () => {
    const batch = writeTemp(
      server,
      "batch.yaml",
      "instances:\n  - {name: b1, image: ubuntu/jammy, flavor: m1.small}\n  - {name: b2, image: ubuntu/jammy, flavor: m1.small}\n  - {name: b3, image: ubuntu/jammy, flavor: m1.small}\n",
    );
    const out = await ok(["bulk", "create", "-f", batch]);
    expect(out).toMatch(/\| b1 {3}\| node\d {4}\|/);
    expect(out).toMatch(/Placed 3 instance\(s\) on \d member\(s\): node\d \(\d\)/);
    expect(out).not.toContain("\r");
    const again = await berth(server, ["bulk", "create", "-f", batch, "--format", "json"]);
    expect(again.code).toBe(ExitCode.conflict);
    expect(again.stderr).toMatch(/^Error: Failed bulk creation.*nothing was created\n$/);
    const json = writeTemp(
      server,
      "batch.json",
      JSON.stringify([
        { name: "j1", image: "ubuntu/jammy" },
        { name: "j2", flavor: "huge", image: "ubuntu/jammy" },
      ]),
    );
    const capacity = await berth(server, ["bulk", "create", "-f", json]);
    expect(capacity.code).toBe(ExitCode.capacity);
    expect(capacity.stderr).toMatch(
      /^Error: Failed bulk creation \(instances\[1\] "j2"\): .*nothing was created\n$/,
    );
    await fails(["info", "j1"], ExitCode.notFound, /^Error: /);
    // In parts of one, the first part lands and stays; the error says so and names the instance in the whole file.
    const chunked = await berth(server, ["bulk", "create", "-f", json, "--chunk-size", "1"]);
    expect(chunked.code).toBe(ExitCode.capacity);
    expect(chunked.stderr).toMatch(
      /^Error: Failed bulk creation \(instances\[1\] "j2"\): .*; the 1 instance\(s\) of earlier chunks stay placed; this chunk was not created\n$/,
    );
    expect(await ok(["list", "j1", "--format", "csv"])).toMatch(/^j1,/);
    await ok(["delete", "j1"]);
    await fails(
      ["bulk", "create", "-f", writeTemp(server, "empty.yaml", "[]\n")],
      ExitCode.usage,
      /^Error: Invalid batch file .*: no instances\n$/,
    );
  });

  it("tests a scriptlet file against the live cluster", async () => {
    const path = writeTemp(
      server,
      "prefer3.star",
      'def instance_placement(request, candidate_members):\n    log_info("candidates: ", len(candidate_members))\n    set_target("node3")\n',
    );
    const spec = writeTemp(server, "spec.yaml", "name: probe\nimage: ubuntu/jammy\nflavor: m1.small\n");
    const extensions = (await new BerthApi({ socketPath: server.socket }).getServer()).api_extensions;
    if (!extensions.includes(DRY_RUN_SOURCE_EXTENSION)) {
      // An older berthd would dry-run its configured scriptlet instead of the file: the CLI must refuse.
      console.warn(
        `berthd lacks ${DRY_RUN_SOURCE_EXTENSION}: only the refusal of "scriptlet test" is checked`,
      );
      await fails(
        ["scriptlet", "test", path, "--instance", spec],
        ExitCode.failed,
        `Error: The server cannot dry-run an unsaved scriptlet (API extension ${DRY_RUN_SOURCE_EXTENSION} missing); try it on a test server with "berth config set instances.placement.scriptlet"\n`,
      );
      return;
    }
    const out = await ok(["scriptlet", "test", path, "--instance", spec]);
    expect(out).toContain("Decision:   placed on node3 (decided by scriptlet)\n");
    expect(out).toContain("Candidates: node");
    expect(out).toMatch(/Cost: +\d+ steps, [\d.]+ ms\n/);
    expect(out).toContain("INFO  candidates: 3\n");
    const json = JSON.parse(
      await ok(["scriptlet", "test", path, "--instance", spec, "--format", "json"]),
    ) as { decision: { outcome: string } };
    expect(json.decision.outcome).toBe("placed");
    // Nothing was created by the dry run.
    await fails(["info", "probe"], ExitCode.notFound, /^Error: /);
    await fails(
      ["scriptlet", "test", path, "--instance", writeTemp(server, "bad.yaml", "{name: [1]}\n")],
      ExitCode.failed,
      /^Error: /,
    );
  });

  it("completes names from the server", async () => {
    const [instances, targets, commands] = await Promise.all([
      ok(["__complete", "--", "info", "b"]),
      ok(["__complete", "--", "init", "ubuntu/jammy", "x", "--target", ""]),
      ok(["__complete", "--", "cluster", "ev"]),
    ]);
    expect(instances).toBe("b1\nb2\nb3\nbar\n");
    expect(targets.split("\n")).toEqual(expect.arrayContaining(["node1", "node2", "node3", "@rack-a"]));
    expect(commands).toBe("evacuate\n");
    await ok(["cluster", "group", "create", "fast"]);
    const [members, newName, groupList, profiles, moreInstances] = await Promise.all([
      ok(["__complete", "--", "cluster", "rename", "node"]),
      ok(["__complete", "--", "cluster", "rename", "node1", ""]),
      ok(["__complete", "--", "cluster", "group", "assign", "node3", "rack-a,"]),
      ok(["__complete", "--", "profile", "show", "def"]),
      ok(["__complete", "--", "delete", "b1", "b"]),
    ]);
    expect(members).toBe("node1\nnode2\nnode3\n");
    // A new name is free text: nothing from the server.
    expect(newName).toBe("");
    // The groups already typed are not offered again; the typed head is kept.
    expect(groupList).toBe("rack-a,default\nrack-a,fast\n");
    expect(profiles).toBe("default\n");
    expect(moreInstances).toBe("b1\nb2\nb3\nbar\n");
    await ok(["cluster", "group", "delete", "fast"]);
    expect(await ok(["completion", "bash"])).toContain("berth __complete --");
    await fails(
      ["completion", "tcsh"],
      ExitCode.usage,
      'Error: Unknown shell "tcsh": expected one of bash, zsh, fish\n',
    );
  });

  it("evacuates, restores and rebalances", async () => {
    const before = await ok(["list", "--format", "csv"]);
    expect(await ok(["cluster", "evacuate", "node2"])).toBe("Member node2 evacuated\n");
    expect(await ok(["cluster", "list", "--format", "csv", "--class", "VCPU"])).toContain("node2,Evacuated,");
    expect(await ok(["list", "location=node2", "--format", "csv"])).toBe("");
    // A named member goes through the same checks as automatic placement, with LXD's words.
    await fails(
      ["init", "ubuntu/jammy", "evac-probe", "--target", "node2"],
      ExitCode.forbidden,
      /Cluster member is evacuated\n$/,
    );
    expect(await ok(["cluster", "restore", "node2"])).toBe("Member node2 restored\n");
    expect(before).not.toBe("");
    await fails(["cluster", "evacuate", "ghost"], ExitCode.notFound, /^Error: /);
    // --dry-run shows the next automatic run (Incus's rules), off by default.
    const preview = await ok(["cluster", "rebalance", "--dry-run"]);
    expect(preview).toMatch(
      /^Automatic rebalancing is off \(cluster\.rebalance\.interval=0\); a run would use threshold 20%, batch 1, cooldown 6H\.\n/,
    );
    expect(preview).toMatch(/The next automatic run moves (nothing|\d+ instance\(s\))\.\n$/);
    await fails(["cluster", "rebalance", "--dry-run", "--yes"], ExitCode.usage, /cannot be combined/);
    // Without it, the plan of the moment is shown and applied after confirmation.
    const asked = await berth(server, ["cluster", "rebalance"]);
    if (asked.code === 0) expect(asked.stdout).toContain("nothing to move");
    else {
      expect(asked.stderr).toMatch(/^Error: Refusing to apply the plan without confirmation/);
      expect(await ok(["cluster", "rebalance", "--yes"])).toMatch(/Applied \d+ move\(s\)\.\n$/);
    }
  });

  it("talks TCP with a token, from the command line or a remote", async () => {
    const created = await runProcess(
      process.execPath,
      [BERTHD, "token", "create", "ops", "--admin", "--json", "--db", server.db],
      {
        PATH: process.env.PATH ?? "",
      },
    );
    expect(created.code).toBe(0);
    const token = (JSON.parse(created.stdout) as { token: string }).token;
    const viaUrl = await berth(server, [
      "--remote",
      server.url,
      "--token",
      token,
      "cluster",
      "list",
      "--format",
      "csv",
      "--class",
      "VCPU",
    ]);
    expect(viaUrl.code).toBe(0);
    expect(viaUrl.stdout).toContain("node1,");
    await fails(["--remote", server.url, "--token", "wrong", "list"], ExitCode.forbidden, /^Error: /);
    await ok(["remote", "add", "tcp", server.url, "--token", token]);
    await ok(["remote", "switch", "tcp"]);
    // BERTH_SOCKET would win over the default remote; the remote is named explicitly here.
    expect(await ok(["--remote", "tcp", "list", "--format", "csv"])).toContain("web1,");
    await fails(["--remote", "nowhere", "list"], ExitCode.usage, /^Error: Remote "nowhere" not found/);
    // Something that is not berthd (a proxy error page): a server error, exit 7, not a crash.
    const impostor = createServer((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html>Bad gateway</html>");
    });
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    const { port } = impostor.address() as AddressInfo;
    await fails(
      ["--remote", `http://127.0.0.1:${port}`, "list"],
      ExitCode.server,
      "Error: The server answered HTTP 502 with a body that is not JSON: <html>Bad gateway</html>\n",
    );
    await new Promise((resolve) => impostor.close(resolve));
    await fails(
      ["--remote", "http://127.0.0.1:1", "list"],
      ExitCode.unreachable,
      /^Error: Cannot reach berthd at http:\/\/127\.0\.0\.1:1/,
    );
  });

  it("places limits.memory percentages and refuses malformed ones, naming the key", async () => {
    // Members offer 16 GiB (their MEMORY_MB inventory): half of it is 8192 MiB on whichever takes it.
    expect(await ok(["init", "ubuntu/jammy", "half1", "-c", "limits.memory=50%"])).toMatch(
      /^Creating half1\nPlaced half1 on node[123]\n$/,
    );
    await ok(["delete", "half1"]);
    await fails(
      ["profile", "create", "pct", "-c", "limits.memory=abc%"],
      ExitCode.failed,
      /Invalid value for config "limits\.memory": strconv\.ParseInt: parsing "abc": invalid syntax\n$/,
    );
    await fails(
      ["init", "ubuntu/jammy", "zero", "-c", "limits.memory=0%"],
      ExitCode.failed,
      /Invalid value for config "limits\.memory": Memory limit can't be 0%\n$/,
    );
  });
});
