/**
 * Issue #15 over HTTP against a real berthd: the safety rules and LXD/Nova
 * semantics outside named members (named-member.test.ts has items 1-2).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addMembers,
  dryRunLogs,
  expectRefusal,
  startTestServer,
  type TestServer,
} from "./testing/test-server.fixture.js";

describe("LXD and Nova semantics every path obeys", () => {
  let server: TestServer;
  const call = (method: string, path: string, body?: unknown) => server.call(method, path, body);

  const refused = (method: string, path: string, body: unknown, status: number, error: string) =>
    expectRefusal(server, { method, path, body }, status, error);

  beforeAll(async () => {
    server = await startTestServer();
    await addMembers(server.local(), [{ name: "n1" }, { name: "n2" }]);
  });
  afterAll(() => server.close());

  it("item 5: a restricted project blocks member targeting unless restricted.cluster.target=allow", async () => {
    expect(
      (await call("POST", "/1.0/projects", { name: "locked", config: { restricted: "true" } })).status,
    ).toBe(201);
    await refused(
      "POST",
      "/1.0/instances?project=locked&target=n1",
      { name: "t1" },
      403,
      "This project doesn't allow cluster member targeting",
    );
    await refused(
      "POST",
      "/1.0/instances?project=locked&target=@default",
      { name: "t1" },
      403,
      "This project doesn't allow cluster member targeting",
    );
    expect((await call("POST", "/1.0/instances?project=locked", { name: "t1" })).status).toBe(201);
    await call("PATCH", "/1.0/projects/locked", { config: { "restricted.cluster.target": "allow" } });
    expect((await call("POST", "/1.0/instances?project=locked&target=n1", { name: "t2" })).status).toBe(201);
  });

  it("item 7: a flavor's custom amount must be positive and a standard one not negative (Nova's words)", async () => {
    const flavor = (name: string, extra_specs: Record<string, string>) => ({
      name,
      vcpus: 1,
      memory_mb: 512,
      disk_gb: 1,
      extra_specs,
    });
    for (const [spec, value, min] of [
      ["resources:CUSTOM_FPGA", "-1", "1"],
      ["resources:CUSTOM_FPGA", "0", "1"],
      ["resources1:VCPU", "-2", "0"],
    ] as const) {
      await refused(
        "POST",
        "/1.0/flavors",
        flavor("fpga", { [spec]: value }),
        400,
        `Validation failed; '${value}' is less than the min value of '${min}'.`,
      );
    }
    expect((await call("POST", "/1.0/flavors", flavor("bare", { "resources:VCPU": "0" }))).status).toBe(201);
  });

  it("item 13: cluster.healing_threshold below cluster.offline_threshold is refused, defaults included", async () => {
    await refused(
      "PATCH",
      "/1.0",
      { config: { "cluster.healing_threshold": "15" } },
      400,
      'Cannot set "cluster.healing_threshold" to "15": must be 0 or at least cluster.offline_threshold (20)',
    );
    expect((await call("PATCH", "/1.0", { config: { "cluster.healing_threshold": "30" } })).status).toBe(200);
    await refused(
      "PATCH",
      "/1.0",
      { config: { "cluster.offline_threshold": "60" } },
      400,
      'Cannot set "cluster.healing_threshold" to "30": must be 0 or at least cluster.offline_threshold (60)',
    );
    expect((await call("PATCH", "/1.0", { config: { "cluster.healing_threshold": "0" } })).status).toBe(200);
  });

  it("item 11: the default cluster group always exists, holds every member and can't be deleted", async () => {
    expect((await call("GET", "/1.0/cluster/members/n1")).body.metadata.groups).toEqual(["default"]);
    expect((await call("GET", "/1.0/cluster/groups/default")).body.metadata.members).toEqual(["n1", "n2"]);
    await refused(
      "DELETE",
      "/1.0/cluster/groups/default",
      undefined,
      403,
      "The 'default' cluster group cannot be deleted",
    );
    await call("POST", "/1.0/cluster/groups", { name: "fast" });
    expect((await call("PATCH", "/1.0/cluster/members/n2", { groups: ["fast"] })).status).toBe(200);
    expect((await call("GET", "/1.0/cluster/members/n2")).body.metadata.groups).toEqual(["default", "fast"]);
  });

  it("item 3: unknown images are refused with LXD's errors; fingerprint prefixes resolve when unique", async () => {
    await call("POST", "/1.0/images", {
      fingerprint: `ab12${"0".repeat(60)}`,
      architecture: "x86_64",
      aliases: [{ name: "jammy", description: "" }],
    });
    await call("POST", "/1.0/images", { fingerprint: `ab34${"0".repeat(60)}`, architecture: "aarch64" });
    const image = (source: Record<string, string>) => ({ name: "img", source: { type: "image", ...source } });
    await refused("POST", "/1.0/instances", image({ alias: "jamy" }), 404, "Image alias not found");
    await refused("POST", "/1.0/instances", image({ fingerprint: "ffff" }), 404, "Image not found");
    await refused("POST", "/1.0/instances", image({ fingerprint: "ab" }), 400, "More than one image matches");
    // A unique prefix names its image: x86_64 here, so the aarch64-free cluster takes it.
    const placed = await call("POST", "/1.0/instances", image({ fingerprint: "ab1" }));
    expect(placed.status).toBe(201);
    expect(placed.body.metadata.architecture).toBe("x86_64");
    // A unique prefix of the aarch64 image: no member runs it.
    const arm = await call("POST", "/1.0/instances", { ...image({ fingerprint: "ab3" }), name: "img2" });
    expect(arm.status).toBe(404);
    expect(arm.body.error).toContain("can't run aarch64");
    // An image on a remote server is resolved there (LXD), not in Berth's catalog.
    const remote = await call("POST", "/1.0/instances", {
      name: "img3",
      source: {
        type: "image",
        alias: "ubuntu/noble",
        server: "https://images.example",
        protocol: "simplestreams",
      },
    });
    expect(remote.status).toBe(201);
  });

  it("item 12: request.architecture is the image's resolved architecture", async () => {
    const source =
      "def instance_placement(request, candidate_members):\n    log_info(request.architecture)\n";
    expect(
      await dryRunLogs(server, source, { name: "arch", source: { type: "image", alias: "jammy" } }),
    ).toEqual(["x86_64"]);
  });

  it("item 4: an instance must declare the CPU and memory its project limits, and limits refuse in LXD's words", async () => {
    await call("POST", "/1.0/projects", {
      name: "lim",
      config: { "limits.cpu": "4", "limits.memory": "4GiB", "limits.instances": "3" },
    });
    await refused(
      "POST",
      "/1.0/instances?project=lim",
      { name: "p3", config: { "limits.memory": "1GiB" } },
      400,
      'Instance "p3" in project "lim" has no "limits.cpu" config, either directly or via a profile',
    );
    await refused(
      "POST",
      "/1.0/instances?project=lim",
      { name: "p3", config: { "limits.cpu": "1" } },
      400,
      'Instance "p3" in project "lim" has no "limits.memory" config, either directly or via a profile',
    );
    const sized = { "limits.cpu": "2", "limits.memory": "1GiB" };
    expect((await call("POST", "/1.0/instances?project=lim", { name: "p1", config: sized })).status).toBe(
      201,
    );
    await refused(
      "POST",
      "/1.0/instances?project=lim",
      { name: "p2", config: { ...sized, "limits.cpu": "3" } },
      507,
      'Reached maximum aggregate value "4" for "limits.cpu" in project "lim"',
    );
    await refused(
      "POST",
      "/1.0/instances?project=lim",
      { name: "p2", config: { ...sized, "limits.memory": "4GiB" } },
      507,
      'Reached maximum aggregate value "4GiB" for "limits.memory" in project "lim"',
    );
    // An edit that drops the declaration is refused too.
    await refused(
      "PUT",
      "/1.0/instances/p1?project=lim",
      { config: { "limits.memory": "1GiB" } },
      400,
      'Instance "p1" in project "lim" has no "limits.cpu" config, either directly or via a profile',
    );
    expect((await call("POST", "/1.0/instances?project=lim", { name: "p2", config: sized })).status).toBe(
      201,
    );
    expect(
      (
        await call("POST", "/1.0/instances?project=lim", {
          name: "p4",
          config: { "limits.cpu": "0", "limits.memory": "1MiB" },
        })
      ).status,
    ).toBe(201);
    await refused(
      "POST",
      "/1.0/instances?project=lim",
      { name: "p5", config: { "limits.cpu": "0", "limits.memory": "1MiB" } },
      507,
      'Reached maximum number of instances in project "lim"',
    );
  });

  it("item 6: a flavor instances use can't be deleted, so they stay editable", async () => {
    await call("POST", "/1.0/flavors", { name: "m1.tiny", vcpus: 1, memory_mb: 512, disk_gb: 1 });
    expect((await call("POST", "/1.0/instances", { name: "fl1", flavor: "m1.tiny" })).status).toBe(201);
    await refused(
      "DELETE",
      "/1.0/flavors/m1.tiny",
      undefined,
      409,
      'Flavor "m1.tiny" is in use by instance "fl1" in project "default"',
    );
    expect((await call("PATCH", "/1.0/instances/fl1", { config: { "user.note": "x" } })).status).toBe(200);
    expect((await call("DELETE", "/1.0/instances/fl1")).status).toBe(200);
    expect((await call("DELETE", "/1.0/flavors/m1.tiny")).status).toBe(200);
  });

  it("item 14: names with control, bidi or URL-special characters or edge spaces are refused (400)", async () => {
    const bad = ["a\u0000b", "a\u0007b", "a\u202eb", "a/b", "a?b", "a#b", "a%b", "a\\b", " a", "a "];
    for (const name of bad) {
      for (const [path, body] of [
        ["/1.0/projects", { name }],
        ["/1.0/profiles", { name }],
        ["/1.0/cluster/groups", { name }],
        ["/1.0/cluster/members", { server_name: name }],
      ] as const) {
        const answer = await call("POST", path, body);
        expect([path, name, answer.status]).toEqual([path, name, 400]);
        expect(answer.body.error).toMatch(/^Invalid field "(name|server_name)": must be /);
      }
      if (name === "a/b") continue; // image aliases keep their "/" parts (ubuntu/22.04)
      const alias = await call("POST", "/1.0/images/aliases", { name, target: `ab12${"0".repeat(60)}` });
      expect([name, alias.status]).toEqual([name, 400]);
    }
  });

  it("item 10: every request field reads as its Go zero value, never None", async () => {
    const source = [
      "def instance_placement(request, candidate_members):",
      "    s = request.source",
      "    fields = [request.stateful, request.start, request.restore, s.server, s.protocol, s.mode,",
      '        s.fingerprint, s.certificate, s.secret, s.operation, s.source, getattr(s, "base-image"),',
      "        s.live, s.instance_only, s.refresh, s.project, s.allow_inconsistent]",
      '    log_info(",".join([type(f) for f in fields]))',
      "",
    ].join("\n");
    expect(await dryRunLogs(server, source, { name: "zero" })).toEqual([
      "bool,bool,string,string,string,string,string,string,string,string,string,string,bool,bool,bool,string,bool",
    ]);
  });

  it("item 10: candidate members, member state, resources and instances read Go's zero values, never None", async () => {
    expect((await call("POST", "/1.0/instances?target=n2", { name: "zi" })).status).toBe(201);
    /** A scriptlet line logging `type()` of each field of `expr`. */
    const types = (expr: string, fields: string[]) =>
      `    log_info(",".join([type(getattr(${expr}, f)) for f in ${JSON.stringify(fields)}]))`;
    const source = [
      "def instance_placement(request, candidate_members):",
      '    r = get_cluster_member_resources("n2")',
      types("candidate_members[0]", ["server_name", "url", "database", "status", "message", "architecture"]),
      types("candidate_members[0]", ["roles", "failure_domain", "description", "config", "groups"]),
      types('get_cluster_member_state("n2").sysinfo', ["uptime", "load_averages", "total_ram", "free_ram"]),
      types('get_cluster_member_state("n2").sysinfo', [
        "shared_ram",
        "buffered_ram",
        "total_swap",
        "free_swap",
      ]),
      types('get_cluster_member_state("n2").sysinfo', ["processes", "logical_cpus"]),
      types('get_cluster_member_state("n2")', ["sysinfo", "storage_pools"]),
      types("r", ["cpu", "memory", "gpu", "network", "storage", "usb", "pci", "system", "serial"]),
      types("r.cpu", ["architecture", "sockets", "total"]),
      types("r.memory", ["nodes", "hugepages_total", "hugepages_used", "hugepages_size", "used", "total"]),
      types("r.system", [
        "uuid",
        "vendor",
        "product",
        "family",
        "version",
        "sku",
        "serial",
        "type",
        "firmware",
      ]),
      types('getattr(r, "load")', ["Average1Min", "Average5Min", "Average10Min", "Processes"]),
      '    i = [i for i in get_instances() if i.name == "zi"][0]',
      types("i", ["architecture", "config", "devices", "ephemeral", "profiles", "stateful", "description"]),
      types("i", [
        "expanded_config",
        "expanded_devices",
        "name",
        "status",
        "status_code",
        "location",
        "type",
      ]),
      types("i", ["project", "created_at", "last_used_at"]),
      types("get_instance_resources()", ["cpu_cores", "memory_size", "root_disk_size"]),
      "",
    ].join("\n");
    expect(await dryRunLogs(server, source, { name: "zero2" })).toEqual([
      "string,string,bool,string,string,string",
      "list,string,string,dict,list",
      "int,list,int,int",
      "int,int,int,int",
      "int,int",
      "ClusterMemberSysInfo,dict",
      "ResourcesCPU,ResourcesMemory,ResourcesGPU,ResourcesNetwork,ResourcesStorage,ResourcesUSB,ResourcesPCI,ResourcesSystem,ResourcesSerial",
      "string,list,int",
      "list,int,int,int,int,int",
      "string,string,string,string,string,string,string,string,NoneType",
      "float,float,float,int",
      "string,dict,dict,bool,list,bool,string",
      "dict,dict,string,string,int,string,string",
      "string,string,string",
      "int,int,int",
    ]);
  });

  it("item 9: a flavor's sizes count and show: DISK_GB without a root disk, limits in expanded_config", async () => {
    await call("POST", "/1.0/flavors", { name: "m1.disk", vcpus: 2, memory_mb: 1024, disk_gb: 7 });
    const before = (await call("GET", "/1.0/cluster/members/n1/inventories")).body.metadata;
    const placed = await call("POST", "/1.0/instances?target=n1", {
      name: "fz1",
      flavor: "m1.disk",
      profiles: [],
    });
    expect(placed.status).toBe(201);
    expect(placed.body.metadata.expanded_config).toMatchObject({
      "limits.cpu": "2",
      "limits.memory": "1024MiB",
    });
    const after = (await call("GET", "/1.0/cluster/members/n1/inventories")).body.metadata;
    expect(after.inventories.DISK_GB.used - before.inventories.DISK_GB.used).toBe(7);
    const shown = (await call("GET", "/1.0/instances/fz1")).body.metadata;
    expect(shown.expanded_config).toMatchObject({ "limits.cpu": "2", "limits.memory": "1024MiB" });
  });
  it("item 9: get_instances() shows a flavor's limits and root size as the API's expanded_config does", async () => {
    // The flavor of the test above; a 409 when it already exists.
    await call("POST", "/1.0/flavors", { name: "m1.disk", vcpus: 2, memory_mb: 1024, disk_gb: 7 });
    expect(
      (
        await call("POST", "/1.0/instances?target=n1", {
          name: "fz2",
          flavor: "m1.disk",
          profiles: [],
          devices: { root: { type: "disk", path: "/", pool: "default" } },
        })
      ).status,
    ).toBe(201);
    const source = [
      "def instance_placement(request, candidate_members):",
      '    i = [i for i in get_instances() if i.name == "fz2"][0]',
      "    c = i.expanded_config",
      '    log_info(c["limits.cpu"], " ", c["limits.memory"], " ", i.expanded_devices["root"]["size"])',
      "",
    ].join("\n");
    const shown = (await call("GET", "/1.0/instances/fz2")).body.metadata;
    expect(shown.expanded_devices.root.size).toBe("7GiB");
    expect(await dryRunLogs(server, source, { name: "fz3" })).toEqual([
      `${shown.expanded_config["limits.cpu"]} ${shown.expanded_config["limits.memory"]} 7GiB`,
    ]);
  });
});
