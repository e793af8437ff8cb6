import { describe, expect, it } from "vitest";
import { ResourcesSchema } from "./member-resources.js";
import { ClusterMemberStateSchema } from "./member-state.js";
import { clusterMemberState, resources } from "./testing/examples.fixture.js";
import { incusResources, lxd4Resources } from "./testing/member-reports.fixture.js";
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

  it("decodes the Go way: missing fields are zero values, unknown fields are dropped", () => {
    const { total_swap: _gone, ...sysinfo } = clusterMemberState.sysinfo;
    const result = parseBody(ClusterMemberStateSchema, {
      sysinfo: { ...sysinfo, newer_lxd_counter: 7 },
      storage_pools: { data: { space: { used: 1, total: 2, free: 1 }, inodes: null } },
    });
    expect(result.ok && result.value).toEqual({
      sysinfo: { ...sysinfo, total_swap: 0 },
      storage_pools: { data: { space: { used: 1, total: 2 }, inodes: { used: 0, total: 0 } } },
    });
    // A heartbeat with nothing in it is a heartbeat with zero counters and no pools.
    expect(parseBody(ClusterMemberStateSchema, {})).toEqual({
      ok: true,
      value: {
        sysinfo: {
          uptime: 0,
          load_averages: [],
          total_ram: 0,
          free_ram: 0,
          shared_ram: 0,
          buffered_ram: 0,
          total_swap: 0,
          free_swap: 0,
          processes: 0,
        },
        storage_pools: {},
      },
    });
  });

  it("still rejects wrong types and negative sizes, naming the field", () => {
    const sysinfo = clusterMemberState.sysinfo;
    expect(
      errorOf(
        parseBody(ClusterMemberStateSchema, { ...clusterMemberState, sysinfo: { ...sysinfo, free_ram: -1 } }),
      ),
    ).toBe('Invalid field "sysinfo.free_ram": must be at least 0');
    expect(
      errorOf(
        parseBody(ClusterMemberStateSchema, {
          ...clusterMemberState,
          storage_pools: { data: { space: { used: 1, total: "2GiB" } } },
        }),
      ),
    ).toBe('Invalid field "storage_pools.data.space.total": expected number, got string');
    expect(
      errorOf(
        parseBody(ClusterMemberStateSchema, {
          ...clusterMemberState,
          sysinfo: { ...sysinfo, load_averages: [-1] },
        }),
      ),
    ).toBe('Invalid field "sysinfo.load_averages[0]": must be at least 0');
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

  it("ignores unknown fields in the parts Berth computes with, as Go clients do", () => {
    const result = parseBody(ResourcesSchema, {
      ...resources,
      cpu: { ...resources.cpu, threads: 4 },
      extra: {},
    });
    expect(result).toEqual({ ok: true, value: resources });
  });

  it("accepts an older LXD's report (no usb, pci, system; null slices) and an Incus one", () => {
    const result = parseBody(ResourcesSchema, lxd4Resources);
    expect(result.ok && result.value.cpu.total).toBe(4);
    expect(result.ok && result.value.usb).toEqual({ devices: [], total: 0 });
    expect(result.ok && result.value.gpu).toEqual({ cards: [], total: 0 });
    expect(result.ok && result.value.system).toEqual({});
    const incus = parseBody(ResourcesSchema, incusResources);
    expect(incus.ok && [incus.value.cpu.total, incus.value.memory.total, incus.value.load]).toEqual([
      16,
      68719476736,
      { Average1Min: 0.42, Average5Min: 0.37, Average10Min: 0.31, Processes: 611 },
    ]);
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

  it("reads a missing section as its zero value, and still refuses a negative size", () => {
    const { memory: _gone, ...rest } = resources;
    const result = parseBody(ResourcesSchema, rest);
    expect(result.ok && result.value.memory).toEqual({
      hugepages_total: 0,
      hugepages_used: 0,
      hugepages_size: 0,
      used: 0,
      total: 0,
    });
    expect(errorOf(parseBody(ResourcesSchema, { ...resources, memory: { total: -1 } }))).toBe(
      'Invalid field "memory.total": must be at least 0',
    );
    expect(errorOf(parseBody(ResourcesSchema, { ...resources, cpu: { total: "8" } }))).toBe(
      'Invalid field "cpu.total": expected number, got string',
    );
  });
});
