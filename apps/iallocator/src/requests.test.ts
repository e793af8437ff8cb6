/**
 * Hand-made clusters for each request type and disk-template family,
 * answered in-process by `iallocate` (the binary is the same function,
 * `fixtures.test.ts` and `main.test.ts` check that), and input errors.
 */
import { describe, expect, it } from "vitest";
import { iallocate } from "./iallocate.js";
import type { Json, JsonList } from "./testing/rules.js";

const POLICY = {
  minmax: [
    {
      min: { "memory-size": 128, "cpu-count": 1, "disk-size": 128, "disk-count": 1, "spindle-use": 1 },
      max: { "memory-size": 16384, "cpu-count": 8, "disk-size": 102400, "disk-count": 4, "spindle-use": 8 },
    },
  ],
  "disk-templates": ["plain", "drbd", "ext"],
  "vcpu-ratio": 4,
  "spindle-ratio": 32,
};

function node(group: string, freeMemory: number, extra: Record<string, unknown> = {}) {
  return {
    group,
    offline: false,
    drained: false,
    vm_capable: true,
    tags: [],
    ndparams: { spindle_count: 1, exclusive_storage: false },
    total_memory: 8192,
    free_memory: freeMemory,
    reserved_memory: 512,
    total_disk: 102400,
    free_disk: 102400,
    total_spindles: 4,
    free_spindles: 4,
    total_cpus: 4,
    reserved_cpus: 0,
    ...extra,
  };
}

function instance(template: string, memory: number, nodes: string[], tags: string[] = []) {
  return {
    memory,
    vcpus: 1,
    disks: [{ size: 1024, mode: "rw" }],
    disk_template: template,
    spindle_use: 1,
    tags,
    nics: [],
    nodes,
  };
}

function request(name: string, template: string, memory: number, extra: Record<string, unknown> = {}) {
  return {
    name,
    memory,
    vcpus: 1,
    disks: [{ size: 1024, mode: "rw" }],
    disk_template: template,
    spindle_use: 1,
    tags: [],
    nics: [],
    required_nodes: template === "drbd" ? 2 : 1,
    ...extra,
  };
}

function cluster(
  nodes: Record<string, unknown>,
  instances: Record<string, unknown>,
  req: unknown,
  extra = {},
) {
  return JSON.stringify({
    version: 2,
    cluster_name: "c",
    cluster_tags: [],
    enabled_hypervisors: ["kvm"],
    nodegroups: {
      g1: { name: "one", alloc_policy: "preferred", networks: ["net-a"], ipolicy: POLICY },
      g2: { name: "two", alloc_policy: "last_resort", networks: [], ipolicy: POLICY },
    },
    nodes,
    instances,
    request: req,
    ...extra,
  });
}

const threeInOne = { a: node("g1", 7000), b: node("g1", 6000), c: node("g1", 7000) };

describe("allocate", () => {
  it("puts a plain instance on one node of the preferred group, the emptiest", async () => {
    const answer = await iallocate(
      cluster(
        { ...threeInOne, z: node("g2", 7600) },
        {},
        { type: "allocate", ...request("web", "plain", 1024) },
      ),
    );
    expect(answer.success).toBe(true);
    expect(answer.result).toHaveLength(1);
    expect(["a", "c"]).toContain((answer.result as string[])[0]);
    expect(answer.info).toMatch(
      /^Request successful: Selected group: one, Group one \(preferred\): score: [0-9.]+, successes 3, failures 0 \(\) for node\(s\) [ac](, Group two|$)/,
    );
  });

  it("puts a DRBD instance on two different nodes of one group, the secondary able to take over", async () => {
    // c is already secondary for 5000 MiB of a's instances: as a's secondary it could not take another 2048 MiB.
    const instances = { big: instance("drbd", 5000, ["a", "c"]) };
    const nodes = { a: node("g1", 7000), b: node("g1", 3000), c: node("g1", 6000) };
    const answer = await iallocate(
      cluster(nodes, instances, { type: "allocate", ...request("db", "drbd", 2048) }),
    );
    expect(answer.success).toBe(true);
    const [primary, secondary] = answer.result as string[];
    expect(primary).not.toBe(secondary);
    expect([primary, secondary]).not.toEqual(["a", "c"]);
    expect(answer.info).toContain("for node(s) ");
  });

  it("falls back to the last-resort group, and refuses unallocable and unconnected ones", async () => {
    const nodes = { a: node("g1", 1000), b: node("g1", 1000), z: node("g2", 7600), y: node("g2", 7600) };
    const answer = await iallocate(
      cluster(nodes, {}, { type: "allocate", ...request("web", "plain", 2048) }),
    );
    expect(answer.success).toBe(true);
    expect(["z", "y"]).toContain((answer.result as string[])[0]);
    const onNet = request("web", "plain", 2048, { nics: [{ network: "net-b" }] });
    const unconnected = await iallocate(cluster(nodes, {}, { type: "allocate", ...onNet }));
    expect(unconnected.info).toBe(
      "Request failed: group one is not connected to a network required by instance web, group two is not connected to a network required by instance web",
    );
  });

  it("keeps instances with the same exclusion tag apart", async () => {
    const instances = { old: instance("plain", 512, ["a"], ["svc:dns"]) };
    const nodes = { a: node("g1", 7600), b: node("g1", 4000) };
    const req = request("dns2", "plain", 512, { tags: ["svc:dns"] });
    const answer = await iallocate(
      cluster(nodes, instances, { type: "allocate", ...req }, { cluster_tags: ["htools:iextags:svc"] }),
    );
    expect(answer.result).toEqual(["b"]);
  });

  it("refuses what the instance policy refuses, per disk", async () => {
    const req = request("huge", "plain", 32768);
    const answer = await iallocate(cluster(threeInOne, {}, { type: "allocate", ...req }));
    expect(answer.success).toBe(false);
    expect(answer.info).toMatch(
      /^Request failed: Group one \(preferred\): No valid allocation solutions, failure reasons: FailMem: 3, /,
    );
  });

  it("keeps to restrict-to-nodes and group_name", async () => {
    const req = request("web", "plain", 1024, { "restrict-to-nodes": ["b"] });
    expect((await iallocate(cluster(threeInOne, {}, { type: "allocate", ...req }))).result).toEqual(["b"]);
    const nodes = { ...threeInOne, z: node("g2", 7600), y: node("g2", 7600) };
    const inTwo = request("web", "plain", 1024, { group_name: "two" });
    expect(["z", "y"]).toContain(
      ((await iallocate(cluster(nodes, {}, { type: "allocate", ...inTwo }))).result as string[])[0],
    );
  });
});

describe("multi-allocate", () => {
  const nodes = { a: node("g1", 5000), b: node("g1", 5000), c: node("g1", 5000) };
  const batch = [
    request("i1", "plain", 2048),
    request("i2", "plain", 4000),
    request("i3", "plain", 4000),
    request("i4", "plain", 4000),
  ];

  it("places what fits and lists the rest as failed, in request order", async () => {
    const answer = await iallocate(cluster(nodes, {}, { type: "multi-allocate", instances: batch }));
    expect(answer.success).toBe(true);
    const [allocated, failed] = answer.result as [[string, string[]][], string[]];
    expect([...allocated.map(([name]) => name), ...failed].sort()).toEqual(["i1", "i2", "i3", "i4"]);
    // Request order: names are numbered in request order.
    expect(allocated.map(([name]) => name)).toEqual(allocated.map(([name]) => name).sort());
    // Three nodes of 5000 MiB: at most one 4000 MiB instance each, and each node's instances must fit on another.
    expect(failed.length).toBeGreaterThan(0);
    expect(answer.info).toBe(
      `Request successful: ${failed.length} instances failed to allocate and ${allocated.length} were allocated successfully`,
    );
  });

  it("fails the whole batch with all_or_nothing", async () => {
    const answer = await iallocate(
      cluster(nodes, {}, { type: "multi-allocate", instances: batch, all_or_nothing: true }),
    );
    expect(answer.success).toBe(false);
    expect(answer.result).toEqual([]);
    expect(answer.info).toMatch(/^Request failed: Group one \(preferred\): No valid allocation solutions/);
  });

  it("places DRBD pairs and plain instances side by side", async () => {
    const big = { a: node("g1", 7600), b: node("g1", 7600), c: node("g1", 7600), d: node("g1", 7600) };
    const mixed = [request("p1", "plain", 1024), request("d1", "drbd", 1024), request("d2", "drbd", 2048)];
    const answer = await iallocate(cluster(big, {}, { type: "multi-allocate", instances: mixed }));
    const [allocated, failed] = answer.result as [[string, string[]][], string[]];
    expect(failed).toEqual([]);
    expect(allocated.map(([name, where]) => [name, where.length])).toEqual([
      ["p1", 1],
      ["d1", 2],
      ["d2", 2],
    ]);
  });
});

describe("moves", () => {
  const nodes = {
    a: node("g1", 7000),
    b: node("g1", 7000),
    c: node("g1", 7000),
    z: node("g2", 7600),
    y: node("g2", 7600),
  };
  const instances = { db: instance("drbd", 1024, ["a", "b"]), shared: instance("ext", 1024, ["a"]) };

  it("relocates a DRBD secondary to another node of its group", async () => {
    const answer = await iallocate(
      cluster(nodes, instances, { type: "relocate", name: "db", required_nodes: 1, relocate_from: ["b"] }),
    );
    expect(answer).toEqual({ success: true, info: "Request successful: success", result: ["c"] });
  });

  it("evacuates primary-only by failover, secondary-only by a new secondary, all by a new pair", async () => {
    const four = { ...nodes, d: node("g1", 7000) };
    const evac = async (mode: string) =>
      (
        await iallocate(
          cluster(four, instances, { type: "node-evacuate", instances: ["db"], evac_mode: mode }),
        )
      ).result as JsonList;
    expect((await evac("primary-only"))[0]).toEqual([["db", "one", ["b", "a"]]]);
    const secondaryOnly = await evac("secondary-only");
    const [, , newSecondary] = secondaryOnly[0][0];
    expect(newSecondary[0]).toBe("a");
    expect(["c", "d"]).toContain(newSecondary[1]);
    expect(secondaryOnly[2][0][0]).toMatchObject({
      OP_ID: "OP_INSTANCE_REPLACE_DISKS",
      remote_node: newSecondary[1],
    });
    const all = await evac("all");
    expect([...all[0][0][2]].sort()).toEqual(["c", "d"]);
    expect(all[2][0].map((op: Json) => op.OP_ID)).toEqual([
      "OP_INSTANCE_REPLACE_DISKS",
      "OP_INSTANCE_MIGRATE",
      "OP_INSTANCE_REPLACE_DISKS",
    ]);
  });

  it("moves a shared-storage instance off its node, and reports a plain one it cannot move", async () => {
    const withPlain = { ...instances, local: instance("plain", 1024, ["a"]) };
    const answer = await iallocate(
      cluster(nodes, withPlain, { type: "node-evacuate", instances: ["shared", "local"], evac_mode: "all" }),
    );
    const [moved, failed, jobs] = answer.result as JsonList;
    expect(moved).toHaveLength(1);
    expect(moved[0][0]).toBe("shared");
    expect(jobs[0][0]).toMatchObject({ OP_ID: "OP_INSTANCE_MIGRATE", target_node: moved[0][2][0] });
    expect(failed).toEqual([["local", "Instance local has local storage and cannot move"]]);
    expect(answer.info).toBe("Request successful: 1 instances failed to move and 1 were moved successfully");
  });

  it("changes a DRBD instance's group", async () => {
    const answer = await iallocate(
      cluster(nodes, instances, { type: "change-group", instances: ["db"], target_groups: [] }),
    );
    const [moved] = answer.result as JsonList;
    expect(moved[0][1]).toBe("two");
    expect([...moved[0][2]].sort()).toEqual(["y", "z"]);
  });

  it("finds a secondary for a plain instance becoming DRBD", async () => {
    const plain = { web: instance("plain", 1024, ["a"]) };
    const answer = await iallocate(cluster(nodes, plain, { type: "allocate-secondary", name: "web" }));
    expect(answer.success).toBe(true);
    expect(["b", "c"]).toContain(answer.result);
    expect(answer.info).toMatch(
      /^Request successful: score: [0-9.]+, successes 2, failures 0 \(\) for node\(s\) a\/[bc]$/,
    );
  });
});

describe("input errors answer success false and name the problem", () => {
  const ok = { type: "allocate", ...request("web", "plain", 1024) };
  it.each([
    ["not JSON", "{", /^Invalid JSON: /],
    [
      "no request",
      JSON.stringify({ nodegroups: {}, nodes: {}, instances: {} }),
      /^Invalid request: key 'request': /,
    ],
    [
      "an unknown request type",
      cluster(threeInOne, {}, { type: "multi-evacuate" }),
      /^Invalid request: key 'request.type': /,
    ],
    [
      "a node in an unknown group",
      cluster({ a: node("nope", 1000) }, {}, ok),
      /^Invalid request: node a is in unknown node group nope$/,
    ],
    [
      "an instance on an unknown node",
      cluster(threeInOne, { x: instance("plain", 1, ["q"]) }, ok),
      /^Invalid request: instance x is on unknown node q$/,
    ],
    [
      "a DRBD instance whose secondary is its primary (the engine's claim rules refuse it)",
      cluster(threeInOne, { x: instance("drbd", 512, ["a", "a"]) }, ok),
      /^Invalid request: Instance "x": its secondary must be another member than its location "a"$/,
    ],
    [
      "an online node without its memory",
      cluster({ a: { ...node("g1", 1), free_memory: undefined } }, {}, ok),
      /^Invalid request: key 'nodes.a.free_memory' not found \(node is online\)$/,
    ],
    [
      "required_nodes that does not fit the template",
      cluster(threeInOne, {}, { ...ok, required_nodes: 2 }),
      /^Invalid request: instance web: required_nodes 2 does not match disk template plain \(1 needed\)$/,
    ],
    [
      "a relocation of an unknown instance",
      cluster(threeInOne, {}, { type: "relocate", name: "q", relocate_from: ["a"] }),
      /^Invalid request: instance q not found in the cluster$/,
    ],
    [
      "a memory that is a string",
      cluster(threeInOne, {}, { ...ok, memory: "1G" }),
      /^Invalid request: key 'request.memory': /,
    ],
    [
      "a batch naming one instance twice",
      cluster(threeInOne, {}, { type: "multi-allocate", instances: [ok, ok] }),
      /^Invalid request: instance web is requested twice$/,
    ],
  ])("%s", async (_what, text, info) => {
    const answer = await iallocate(text);
    expect(answer.success).toBe(false);
    expect(answer.result).toEqual([]);
    expect(answer.info).toMatch(info);
  });
});
