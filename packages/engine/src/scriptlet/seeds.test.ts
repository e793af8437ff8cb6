/**
 * The two scriptlets of seed 001, unmodified (testdata/*.star are verbatim
 * copies): the spec's example and the forum's most-free-memory example in
 * the pre-release `instance_placement(reason, request, candidate_members)` form.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createScriptletHost } from "./host.js";
import { createPlainClusterView } from "./plain-cluster.js";
import type { ClusterMemberView, ScriptletCall, ScriptletLogger } from "./port.js";

const specExample = readFileSync(new URL("./testdata/seed-001-spec-example.star", import.meta.url), "utf8");
const forumExample = readFileSync(
  new URL("./testdata/seed-001-forum-most-free-memory.star", import.meta.url),
  "utf8",
);

const GiB = 1024 ** 3;
const members: ClusterMemberView[] = ["node1", "node2", "node3"].map((name, i) => ({
  server_name: name,
  url: `https://10.0.0.${i + 1}:8443`,
  status: "Online",
  message: "Fully operational",
  architecture: "x86_64",
  roles: [],
  failure_domain: "default",
  config: {},
  groups: ["default"],
}));

const cluster = createPlainClusterView({
  members,
  states: {
    node1: { sysinfo: { free_ram: 2 * GiB, load_averages: [0.5, 0.25, 0.1] } },
    node2: { sysinfo: { free_ram: 8 * GiB, load_averages: [1, 1.5, 2] } },
    node3: { sysinfo: { free_ram: 4 * GiB + 512 * 1024, load_averages: [0, 0, 0] } },
  },
});

function placement(name: string): ScriptletCall {
  return {
    request: {
      name,
      reason: "new",
      project: "default",
      type: "container",
      config: { "limits.cpu": "2" },
      devices: { root: { path: "/", pool: "default", type: "disk" } },
      profiles: ["default"],
    },
    candidates: members,
    instanceResources: { cpu_cores: 2, memory_size: 0, root_disk_size: 0 },
    cluster,
    limits: {
      maxSteps: 100_000,
      timeoutMs: 1_000,
      maxStringLength: 1 << 20,
      maxCollectionSize: 100_000,
      maxAllocBytes: 64 << 20,
    },
  };
}

describe("seed 001: the spec's example scriptlet", () => {
  const host = createScriptletHost();

  it("passes validation", () => {
    expect(() => host.validate(specExample)).not.toThrow();
  });

  it("rejects the name foo with the LXD error text", () => {
    const result = host.run(1, specExample, placement("foo"));
    expect(result.outcome).toEqual({
      kind: "rejected",
      message: 'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
    });
    expect(result.logs[1]).toEqual({ level: "error", message: "Invalid name supplied: foo" });
  });

  it("targets the first candidate otherwise, logging the request as a dict", () => {
    const lines: unknown[] = [];
    const logger: ScriptletLogger = { log: (line) => lines.push(line) };
    const result = host.run(1, specExample, placement("c1"), logger);
    expect(result.outcome).toEqual({ kind: "target", member: "node1" });
    expect(result.logs).toHaveLength(1);
    const started = result.logs[0]?.message ?? "";
    expect(
      started.startsWith('instance_placement started: {"architecture": "", "config": {"limits.cpu": "2"}'),
    ).toBe(true);
    expect(started).toContain('"name": "c1"');
    expect(started).toContain('"reason": "new", "project": "default"}');
    expect(lines).toEqual([
      { level: "info", message: started, instance: "c1", project: "default", reason: "new" },
    ]);
    expect(result.cost.steps).toBeGreaterThan(0);
  });
});

describe("seed 001: the forum's most-free-memory scriptlet (reason, request, candidate_members)", () => {
  const host = createScriptletHost();

  it("passes validation in the pre-release form", () => {
    expect(() => host.validate(forumExample)).not.toThrow();
  });

  it("targets the member with the most free memory and logs what it saw", () => {
    const result = host.run(7, forumExample, placement("web1"));
    expect(result.outcome).toEqual({ kind: "target", member: "node2" });
    expect(result.logs).toEqual([
      { level: "info", message: "node1 - free memory: 2048MB, load: [0.5, 0.25, 0.1]" },
      { level: "info", message: "node2 - free memory: 8192MB, load: [1.0, 1.5, 2.0]" },
      { level: "info", message: "node3 - free memory: 4096MB, load: [0.0, 0.0, 0.0]" },
      { level: "info", message: "targeting node2 for new instance web1" },
    ]);
  });

  it("follows the data: more free memory on node3 moves the choice", () => {
    const richer = createPlainClusterView({
      members,
      states: {
        node1: { sysinfo: { free_ram: 2 * GiB, load_averages: [0.5, 0.25, 0.1] } },
        node2: { sysinfo: { free_ram: 8 * GiB, load_averages: [1, 1.5, 2] } },
        node3: { sysinfo: { free_ram: 64 * GiB, load_averages: [0, 0, 0] } },
      },
    });
    const result = host.run(7, forumExample, { ...placement("web2"), cluster: richer });
    expect(result.outcome).toEqual({ kind: "target", member: "node3" });
  });
});
