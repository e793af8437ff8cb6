import { describe, expect, it } from "vitest";
import { TEST_SCRIPTLET_LIMITS } from "../testing/scriptlet-limits.fixture.js";
import { createScriptletHost } from "./host.js";
import { createPlainClusterView, type PlainClusterData } from "./plain-cluster.js";
import type { ClusterMemberView, ScriptletCall, ScriptletResult } from "./port.js";

const members: ClusterMemberView[] = [
  { server_name: "node1", architecture: "x86_64", groups: ["default", "gpu"], config: { "user.rack": "r1" } },
  { server_name: "node2", architecture: "x86_64", groups: ["default"] },
  { server_name: "node3", architecture: "aarch64", groups: ["default"] },
];

const data: PlainClusterData = {
  members,
  states: {
    node1: {
      sysinfo: {
        uptime: 3600,
        load_averages: [0.5, 1, 1.25],
        total_ram: 16,
        free_ram: 8,
        processes: 120,
        logical_cpus: 8,
      },
      storage_pools: { local: { space: { used: 10, total: 100 }, inodes: { used: 1, total: 1000 } } },
    },
  },
  resources: {
    node1: {
      cpu: {
        architecture: "x86_64",
        total: 8,
        sockets: [{ socket: 0, cores: [{ core: 0, threads: [{ id: 0 }] }] }],
      },
      memory: { total: 17179869184, used: 1024 },
    },
  },
  instances: [
    { name: "a", project: "default", location: "node1", config: { "user.ha": "g1" } },
    { name: "b", project: "default", location: "node2" },
    { name: "c", project: "prod", location: "node1" },
  ],
  pending: [{ project: "default", location: "node1" }],
  projects: [
    {
      name: "default",
      description: "Default project",
      config: { "limits.instances": "10" },
      used_by: ["/1.0/instances/a"],
    },
    { name: "prod" },
  ],
};

function call(overrides: Partial<ScriptletCall> = {}): ScriptletCall {
  return {
    request: { name: "c1", reason: "new", project: "default" },
    candidates: members.slice(0, 2),
    instanceResources: {
      cpu_cores: 2,
      memory_size: 536870912,
      root_disk_size: 209715200,
      resource_classes: { VCPU: 2, MEMORY_MB: 512, CUSTOM_GPU: 1 },
    },
    cluster: createPlainClusterView(data),
    limits: TEST_SCRIPTLET_LIMITS,
    ...overrides,
  };
}

/** Runs `body` inside instance_placement; returns what it logged (each log_info line). */
function run(body: string, overrides: Partial<ScriptletCall> = {}): ScriptletResult {
  const indented = body
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
  return createScriptletHost().run(
    1,
    `def instance_placement(request, candidate_members):\n${indented}\n`,
    call(overrides),
  );
}

function logged(body: string): string[] {
  const result = run(body);
  if (result.outcome.kind === "rejected") throw new Error(result.outcome.message);
  return result.logs.map((l) => l.message);
}

function failure(body: string): string {
  const result = run(body);
  if (result.outcome.kind !== "rejected") throw new Error("expected a failure");
  return result.outcome.message.replace("Failed instance placement scriptlet: Failed to run: ", "");
}

describe("log_info / log_warn / log_error", () => {
  it("joins pieces with no separator: strings raw, everything else as repr", () => {
    expect(logged('log_info("a", 1, 2.5, None, True, [1, "x"], {"k": "v"}, (1,), "\\"q\\"")')).toEqual([
      'a12.5NoneTrue[1, "x"]{"k": "v"}(1,)"q"',
    ]);
  });

  it("ignores keyword arguments and accepts no arguments", () => {
    expect(logged('log_info("x", foo=1)\nlog_warn()')).toEqual(["x", ""]);
  });

  it("logs at the builtin's level", () => {
    expect(run('log_info("i")\nlog_warn("w")\nlog_error("e")').logs.map((l) => l.level)).toEqual([
      "info",
      "warn",
      "error",
    ]);
  });
});

describe("set_target", () => {
  it("accepts a candidate by position or keyword", () => {
    expect(run('set_target("node2")').outcome).toEqual({ kind: "target", member: "node2" });
    expect(run('set_target(member_name="node1")').outcome).toEqual({ kind: "target", member: "node1" });
  });

  it("refuses a member that is not a candidate", () => {
    // node3 exists but is not among this call's candidates.
    expect(failure('set_target("node3")')).toBe("Invalid member name: node3");
  });

  it("keeps checking candidates when called many times (scan first, then a name set)", () => {
    const calls = 'set_target("node1")\nset_target("node2")\n'.repeat(6);
    expect(run(`${calls}set_target("node1")`).outcome).toEqual({ kind: "target", member: "node1" });
    expect(failure(`${calls}set_target("node3")`)).toBe("Invalid member name: node3");
  });

  it("asks the caller's candidate test when there is one", () => {
    const asked: string[] = [];
    const isCandidate = (name: string): boolean => {
      asked.push(name);
      return name === "node1";
    };
    expect(run('set_target("node1")', { isCandidate }).outcome).toEqual({ kind: "target", member: "node1" });
    const refused = run('set_target("node2")', { isCandidate });
    expect(refused.outcome).toEqual({
      kind: "rejected",
      message: "Failed instance placement scriptlet: Failed to run: Invalid member name: node2",
    });
    expect(asked).toEqual(["node1", "node2"]);
  });

  it("unpacks arguments with go.starlark.net's texts", () => {
    expect(failure("set_target()")).toBe("set_target: missing argument for member_name");
    expect(failure("set_target(1)")).toBe("set_target: for parameter member_name: got int, want string");
    expect(failure("set_target(None)")).toBe(
      "set_target: for parameter member_name: got NoneType, want string",
    );
    expect(failure('set_target("node1", "node2")')).toBe("set_target: got 2 arguments, want at most 1");
    expect(failure('set_target(member_nam="node1")')).toBe(
      'set_target: unexpected keyword argument "member_nam" (did you mean member_name?)',
    );
    expect(failure('set_target(target="node1")')).toBe('set_target: unexpected keyword argument "target"');
    expect(failure('set_target("node1", member_name="node1")')).toBe(
      'set_target: got multiple values for keyword argument "member_name"',
    );
  });
});

describe("get_cluster_member_state", () => {
  it("returns a ClusterMemberState object", () => {
    expect(
      logged(
        [
          's = get_cluster_member_state("node1")',
          "log_info(type(s), type(s.sysinfo), s.sysinfo.free_ram, s.sysinfo.load_averages, s.sysinfo.logical_cpus)",
          'log_info(s["sysinfo"]["uptime"], " ", s.storage_pools["local"].space.total, " ", type(s.storage_pools["local"]))',
          "log_info(s.sysinfo.shared_ram, s.sysinfo.buffered_ram)",
        ].join("\n"),
      ),
    ).toEqual([
      "ClusterMemberStateClusterMemberSysInfo8[0.5, 1.0, 1.25]8",
      "3600 100 StoragePoolState",
      "00",
    ]);
  });

  it("reads an empty state for a known member without data", () => {
    expect(
      logged('s = get_cluster_member_state("node2")\nlog_info(s.sysinfo.free_ram, s.storage_pools)'),
    ).toEqual(["0{}"]);
  });

  /** The first three members as candidates, with a by-position state reader that records the positions asked. */
  function positionalStates() {
    const candidates = members.slice(0, 3);
    const cluster = createPlainClusterView(data);
    const byPosition: number[] = [];
    const candidateState = (index: number) => {
      byPosition.push(index);
      return cluster.memberState(candidates[index]!.server_name) ?? {};
    };
    return { candidates, candidateState, byPosition };
  }

  it("answers a walk over the candidates by position, any other name by lookup, with the same states", () => {
    const { candidates, candidateState, byPosition } = positionalStates();
    const body = [
      "for m in candidate_members:",
      "    log_info(m.server_name, get_cluster_member_state(m.server_name).sysinfo.free_ram)",
      'log_info(get_cluster_member_state("node1").sysinfo.free_ram)',
      "for m in candidate_members[::-1]:",
      "    log_info(m.server_name, get_cluster_member_state(m.server_name).sysinfo.free_ram)",
    ].join("\n");
    const fast = run(body, { candidates, candidateState });
    const plain = run(body, { candidates });
    expect(fast.logs).toEqual(plain.logs);
    expect(fast.logs.map((line) => line.message)).toEqual([
      "node18",
      "node20",
      "node30",
      "8",
      "node30",
      "node20",
      "node18",
    ]);
    // The in-order walk went by position; the lone name and the reversed walk were looked up.
    expect(byPosition).toEqual([0, 1, 2]);
  });

  it("keeps answering by position when a walk skips a few candidates", () => {
    const { candidates, candidateState, byPosition } = positionalStates();
    const body = [
      "for m in candidate_members:",
      '    if m.server_name == "node2":',
      "        continue",
      "    log_info(get_cluster_member_state(m.server_name).sysinfo.free_ram)",
    ].join("\n");
    expect(run(body, { candidates, candidateState }).logs.map((line) => line.message)).toEqual(["8", "0"]);
    expect(byPosition).toEqual([0, 2]);
  });

  it("fails for an unknown member and unpacks like set_target", () => {
    expect(failure('get_cluster_member_state("nope")')).toBe("Invalid member name: nope");
    expect(failure("get_cluster_member_state(3)")).toBe(
      "get_cluster_member_state: for parameter member_name: got int, want string",
    );
    expect(failure("get_cluster_member_state()")).toBe(
      "get_cluster_member_state: missing argument for member_name",
    );
  });
});

describe("get_cluster_member_resources", () => {
  it("returns a Resources object with nested structs by attribute and index", () => {
    expect(
      logged(
        [
          'r = get_cluster_member_resources(member_name="node1")',
          "log_info(type(r), type(r.cpu), r.cpu.total, r.memory.total, r.gpu.total)",
          'log_info(type(r.cpu.sockets[0]), r["cpu"]["sockets"][0].cores[0].threads[0].id, type(r.cpu.sockets[0].cores[0]))',
        ].join("\n"),
      ),
    ).toEqual(["ResourcesResourcesCPU8171798691840", "ResourcesCPUSocket0ResourcesCPUSocketCore"]);
  });

  it("fails for an unknown member or field", () => {
    expect(failure('get_cluster_member_resources("nope")')).toBe("Invalid member name: nope");
    expect(failure('get_cluster_member_resources("node1").cpu.nope')).toBe('Invalid field "nope"');
  });
});

describe("get_instance_resources", () => {
  it("returns cpu_cores, memory_size, root_disk_size and resource classes", () => {
    expect(
      logged(
        'r = get_instance_resources()\nlog_info(type(r), r.cpu_cores, " ", r.memory_size, " ", r.root_disk_size, " ", r.resource_classes)',
      ),
    ).toEqual(['InstanceResources2 536870912 209715200 {"CUSTOM_GPU": 1, "MEMORY_MB": 512, "VCPU": 2}']);
  });

  it("ignores arguments, as LXD does", () => {
    expect(logged('log_info(get_instance_resources("x", y=1).cpu_cores)')).toEqual(["2"]);
  });
});

describe("get_instances", () => {
  it("lists all instances, or those of a project and/or location", () => {
    expect(
      logged(
        [
          "log_info([i.name for i in get_instances()])",
          'log_info([i.name for i in get_instances(project="default")])',
          'log_info([i.name for i in get_instances(location="node1")])',
          'log_info([i.name for i in get_instances("default", "node1")])',
          'log_info([i.name for i in get_instances(None, location="node2")])',
          'i = get_instances(location="node1")[0]\nlog_info(type(i), i.config, i.status, i.expanded_devices)',
        ].join("\n"),
      ),
    ).toEqual([
      '["a", "b", "c"]',
      '["a", "b"]',
      '["a", "c"]',
      '["a"]',
      '["b"]',
      'Instance{"user.ha": "g1"}{}',
    ]);
  });

  it("unpacks project then location", () => {
    expect(failure("get_instances(1)")).toBe("get_instances: for parameter project: got int, want string");
    expect(failure('get_instances("default", 2)')).toBe(
      "get_instances: for parameter location: got int, want string",
    );
    expect(failure('get_instances(foo="x")')).toBe('get_instances: unexpected keyword argument "foo"');
    expect(failure('get_instances("a", "b", "c")')).toBe("get_instances: got 3 arguments, want at most 2");
  });
});

describe("lists built by builtins", () => {
  const many = createPlainClusterView({
    ...data,
    instances: Array.from({ length: 50 }, (_, i) => ({
      name: `i${i}`,
      project: "default",
      location: "node1",
    })),
  });
  const limits = {
    maxSteps: 1_000,
    timeoutMs: 2_000,
    maxStringLength: 1 << 16,
    maxCollectionSize: 40,
    maxAllocBytes: 64 << 20,
  };

  it("count against the collection cap", () => {
    const result = run("get_instances()", { cluster: many, limits });
    expect(result.outcome).toEqual({
      kind: "rejected",
      message:
        "Failed instance placement scriptlet: Failed to run: collection too large: 50 elements exceeds the limit of 40",
    });
  });

  it("cost one step per element", () => {
    const small = run('log_info(len(get_instances(project="default", location="node2")))');
    const listed = run("log_info(len(get_instances()))");
    expect(listed.cost.steps - small.cost.steps).toBe(2); // three instances listed instead of one
    const looping = run("for i in range(400):\n    get_instances()", { limits });
    expect(looping.outcome).toEqual({
      kind: "rejected",
      message:
        "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: too many steps (limit 1000)",
    });
  });
});

describe("get_instances_count", () => {
  it("counts instances, with pending creates on request", () => {
    expect(
      logged(
        [
          "log_info(get_instances_count())",
          'log_info(get_instances_count(project="default"))',
          'log_info(get_instances_count(location="node1"))',
          'log_info(get_instances_count("default", "node1", True))',
          'log_info(get_instances_count(location="node1", pending=True))',
          "log_info(type(get_instances_count(pending=None)))",
        ].join("\n"),
      ),
    ).toEqual(["3", "2", "2", "2", "3", "int"]);
  });

  it("fails for an unknown project or member, and on bad arguments", () => {
    expect(failure('get_instances_count(project="nope")')).toBe("Project not found");
    expect(failure('get_instances_count(location="nope")')).toBe("Cluster member not found");
    expect(failure("get_instances_count(pending=1)")).toBe(
      "get_instances_count: for parameter pending: got int, want bool",
    );
    expect(failure("get_instances_count(pendng=True)")).toBe(
      'get_instances_count: unexpected keyword argument "pendng" (did you mean pending?)',
    );
  });
});

describe("get_cluster_members", () => {
  it("lists schedulable members, optionally of a group", () => {
    expect(
      logged(
        [
          "log_info([m.server_name for m in get_cluster_members()])",
          'log_info([m.server_name for m in get_cluster_members("gpu")])',
          "log_info([m.server_name for m in get_cluster_members(group=None)])",
          'm = get_cluster_members(group="gpu")[0]\nlog_info(type(m), m.config["user.rack"], m.groups, m.roles, m.url)',
        ].join("\n"),
      ),
    ).toEqual([
      '["node1", "node2", "node3"]',
      '["node1"]',
      '["node1", "node2", "node3"]',
      'ClusterMemberr1["default", "gpu"][]',
    ]);
  });

  it("fails for an unknown group", () => {
    expect(failure('get_cluster_members("nope")')).toBe('Cluster group "nope" doesn\'t exist');
    expect(failure("get_cluster_members(1)")).toBe(
      "get_cluster_members: for parameter group: got int, want string",
    );
  });
});

describe("get_project", () => {
  it("returns a Project object by name", () => {
    expect(
      logged(
        'p = get_project("default")\nlog_info(type(p), p.name, p.description, p.config, p.used_by)\nlog_info(get_project(name="prod").config)',
      ),
    ).toEqual(['ProjectdefaultDefault project{"limits.instances": "10"}["/1.0/instances/a"]', "{}"]);
  });

  it("defaults to the request's project", () => {
    expect(logged("log_info(get_project().name, get_project(None).name)")).toEqual(["defaultdefault"]);
  });

  it("fails for an unknown project", () => {
    expect(failure('get_project("nope")')).toBe("Project not found");
    expect(failure("get_project(1)")).toBe("get_project: for parameter name: got int, want string");
  });
});

describe("Go's zero values (#15 item 10): objects without data read every field with its Go type", () => {
  /** `type()` of each named field of the object `expr`, joined by commas. */
  function fieldTypes(expr: string, fields: string[]): string {
    const names = fields.map((name) => JSON.stringify(name)).join(", ");
    return logged(`o = ${expr}\nlog_info(",".join([type(getattr(o, f)) for f in [${names}]]))`)[0] ?? "";
  }

  it("ClusterMember", () => {
    const fields = ["server_name", "url", "database", "status", "message", "architecture", "roles"];
    expect(
      fieldTypes("candidate_members[1]", [...fields, "failure_domain", "description", "config", "groups"]),
    ).toBe("string,string,bool,string,string,string,list,string,string,dict,list");
  });

  it("ClusterMemberState, its sysinfo and a storage pool's usage", () => {
    const sysinfo = ["uptime", "load_averages", "total_ram", "free_ram", "shared_ram", "buffered_ram"];
    expect(
      fieldTypes('get_cluster_member_state("node2").sysinfo', [
        ...sysinfo,
        "total_swap",
        "free_swap",
        "processes",
        "logical_cpus",
      ]),
    ).toBe("int,list,int,int,int,int,int,int,int,int");
    expect(fieldTypes('get_cluster_member_state("node2")', ["sysinfo", "storage_pools"])).toBe(
      "ClusterMemberSysInfo,dict",
    );
  });

  it("Resources and each part's own fields", () => {
    const parts = ["cpu", "memory", "gpu", "network", "storage", "usb", "pci", "system", "load", "serial"];
    expect(fieldTypes('get_cluster_member_resources("node2")', parts)).toBe(
      "ResourcesCPU,ResourcesMemory,ResourcesGPU,ResourcesNetwork,ResourcesStorage,ResourcesUSB,ResourcesPCI,ResourcesSystem,ResourcesLoad,ResourcesSerial",
    );
    const r = 'get_cluster_member_resources("node2")';
    expect(fieldTypes(`${r}.cpu`, ["architecture", "sockets", "total"])).toBe("string,list,int");
    expect(
      fieldTypes(`${r}.memory`, [
        "nodes",
        "hugepages_total",
        "hugepages_used",
        "hugepages_size",
        "used",
        "total",
      ]),
    ).toBe("list,int,int,int,int,int");
    expect(fieldTypes(`${r}.gpu`, ["cards", "total"])).toBe("list,int");
    expect(fieldTypes(`${r}.storage`, ["disks", "total"])).toBe("list,int");
    expect(fieldTypes(`${r}.pci`, ["devices", "total"])).toBe("list,int");
    // Go pointers (firmware, chassis, motherboard) are the only None.
    expect(
      fieldTypes(`${r}.system`, [
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
    ).toBe("string,string,string,string,string,string,string,string,NoneType");
    // `load` is a Starlark keyword: the field is reached with getattr.
    expect(
      fieldTypes(`getattr(${r}, "load")`, ["Average1Min", "Average5Min", "Average10Min", "Processes"]),
    ).toBe("float,float,float,int");
  });

  it("Instance", () => {
    const fields = ["architecture", "config", "devices", "ephemeral", "profiles", "stateful", "description"];
    const more = ["created_at", "expanded_config", "expanded_devices", "name", "status", "status_code"];
    expect(
      fieldTypes('get_instances(location="node2")[0]', [
        ...fields,
        ...more,
        "last_used_at",
        "location",
        "type",
        "project",
      ]),
    ).toBe(
      "string,dict,dict,bool,list,bool,string,string,dict,dict,string,string,int,string,string,string,string",
    );
  });
});
