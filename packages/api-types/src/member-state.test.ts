import { describe, expect, it } from "vitest";
import { ResourcesSchema } from "./member-resources.js";
import { ClusterMemberStateSchema } from "./member-state.js";
import { clusterMemberState, resources } from "./testing/examples.fixture.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

describe("ClusterMemberState", () => {
  it("accepts LXD's sysinfo and storage pools", () => {
    expect(parseBody(ClusterMemberStateSchema, clusterMemberState)).toEqual({
      ok: true,
      value: clusterMemberState,
    });
  });

  it("accepts a member older than LXD 6.2 (no logical_cpus)", () => {
    const { logical_cpus: _gone, ...sysinfo } = clusterMemberState.sysinfo;
    expect(parseBody(ClusterMemberStateSchema, { ...clusterMemberState, sysinfo }).ok).toBe(true);
  });

  it("rejects wrong load averages, negative sizes and unknown pool fields", () => {
    const sysinfo = clusterMemberState.sysinfo;
    expect(
      errorOf(
        parseBody(ClusterMemberStateSchema, {
          ...clusterMemberState,
          sysinfo: { ...sysinfo, load_averages: [1] },
        }),
      ),
    ).toBe('Invalid field "sysinfo.load_averages": must have exactly 3 items');
    expect(
      errorOf(
        parseBody(ClusterMemberStateSchema, { ...clusterMemberState, sysinfo: { ...sysinfo, free_ram: -1 } }),
      ),
    ).toBe('Invalid field "sysinfo.free_ram": must be at least 0');
    expect(
      errorOf(
        parseBody(ClusterMemberStateSchema, {
          ...clusterMemberState,
          storage_pools: { data: { space: { used: 1, total: 2, free: 1 }, inodes: { used: 0, total: 0 } } },
        }),
      ),
    ).toBe('Unknown field "storage_pools.data.space.free"');
  });
});

describe("Resources (LXD api.Resources)", () => {
  it("accepts a full hardware report", () => {
    expect(parseBody(ResourcesSchema, resources)).toEqual({ ok: true, value: resources });
  });

  it("accepts Incus's load section", () => {
    const load = { Average1Min: 0.1, Average5Min: 0.2, Average10Min: 0.3, Processes: 200 };
    expect(parseBody(ResourcesSchema, { ...resources, load }).ok).toBe(true);
  });

  it("keeps device detail records verbatim, whatever fields a newer LXD adds", () => {
    const gpu = { cards: [{ driver: "nvidia", future_field: { x: 1 } }], total: 1 };
    const result = parseBody(ResourcesSchema, { ...resources, gpu });
    expect(result.ok && result.value.gpu.cards[0]).toEqual({ driver: "nvidia", future_field: { x: 1 } });
  });

  it("rejects unknown fields in the parts Berth computes with", () => {
    expect(errorOf(parseBody(ResourcesSchema, { ...resources, cpu: { ...resources.cpu, threads: 4 } }))).toBe(
      'Unknown field "cpu.threads"',
    );
    expect(errorOf(parseBody(ResourcesSchema, { ...resources, extra: {} }))).toBe('Unknown field "extra"');
  });

  it("names the exact thread field that is wrong", () => {
    const socket = resources.cpu.sockets[0];
    const core = socket?.cores[0];
    if (socket === undefined || core === undefined) throw new Error("fixture changed");
    const badThread = { id: 0, numa_node: 0, thread: 0, online: "yes", isolated: false };
    const cpu = { ...resources.cpu, sockets: [{ ...socket, cores: [{ ...core, threads: [badThread] }] }] };
    expect(errorOf(parseBody(ResourcesSchema, { ...resources, cpu }))).toBe(
      'Invalid field "cpu.sockets[0].cores[0].threads[0].online": expected boolean, got string',
    );
  });

  it("requires every section", () => {
    const { memory: _gone, ...rest } = resources;
    expect(errorOf(parseBody(ResourcesSchema, rest))).toBe('Missing field "memory"');
  });
});
