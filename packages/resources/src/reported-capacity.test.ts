import { describe, expect, it } from "vitest";
import { capacityReportHint, reportedCapacity } from "./reported-capacity.js";
import { GiB } from "./sizes.js";

/** A state report as an LXD >= 6.2 member sends it (sysinfo with logical_cpus). */
const state = {
  sysinfo: {
    uptime: 3600,
    load_averages: [0.1, 0.2, 0.3],
    total_ram: 16 * GiB,
    free_ram: 8 * GiB,
    shared_ram: 0,
    buffered_ram: 0,
    total_swap: 0,
    free_swap: 0,
    processes: 120,
    logical_cpus: 8,
  },
  storage_pools: {
    local: { space: { used: 1, total: 50 * GiB }, inodes: { used: 0, total: 0 } },
    default: { space: { used: 1, total: 200 * GiB }, inodes: { used: 0, total: 0 } },
  },
};

describe("reportedCapacity", () => {
  it("sizes a member from its state report alone", () => {
    expect(reportedCapacity(null, state)).toEqual({
      cpuThreads: 8,
      memoryBytes: 16 * GiB,
      rootPoolBytes: 200 * GiB,
    });
  });

  it("prefers the resources document's CPU and memory; pools come from the state", () => {
    const resources = { cpu: { total: 32 }, memory: { total: 64 * GiB } };
    expect(reportedCapacity(resources, state)).toEqual({
      cpuThreads: 32,
      memoryBytes: 64 * GiB,
      rootPoolBytes: 200 * GiB,
    });
    expect(reportedCapacity(resources, null)).toEqual({ cpuThreads: 32, memoryBytes: 64 * GiB });
  });

  it("falls back field by field: a zero (Go's 'not reported') is no size", () => {
    const resources = { cpu: { total: 0 }, memory: { total: 64 * GiB } };
    expect(reportedCapacity(resources, state).cpuThreads).toBe(8);
    // An LXD before 6.2 reports no logical_cpus: VCPU is then unknown.
    const { logical_cpus: _, ...older } = state.sysinfo;
    expect(reportedCapacity(null, { ...state, sysinfo: older })).toEqual({
      memoryBytes: 16 * GiB,
      rootPoolBytes: 200 * GiB,
    });
  });

  it("takes the first pool when there is no pool named default, and none when none is reported", () => {
    const onlyLocal = { ...state, storage_pools: { local: state.storage_pools.local } };
    expect(reportedCapacity(null, onlyLocal).rootPoolBytes).toBe(50 * GiB);
    expect(reportedCapacity(null, { ...state, storage_pools: {} }).rootPoolBytes).toBeUndefined();
    expect(reportedCapacity(null, null)).toEqual({});
  });

  it("sizes DISK_GB from the pools the profiles' root disks name, summed over those the member has", () => {
    expect(reportedCapacity(null, state, ["local"]).rootPoolBytes).toBe(50 * GiB);
    expect(reportedCapacity(null, state, ["default", "local"]).rootPoolBytes).toBe(250 * GiB);
    // A named pool the member does not report adds nothing; reporting none of them sizes no DISK_GB.
    expect(reportedCapacity(null, state, ["local", "ssd"]).rootPoolBytes).toBe(50 * GiB);
    expect(reportedCapacity(null, state, ["ssd"]).rootPoolBytes).toBeUndefined();
    // A pool named like an Object.prototype member is just a name.
    expect(reportedCapacity(null, state, ["constructor"]).rootPoolBytes).toBeUndefined();
  });
});

describe("capacityReportHint", () => {
  it("names the report field a standard class is derived from", () => {
    expect(capacityReportHint("DISK_GB", "node3")).toBe(
      "report storage_pools.POOL.space.total in PUT /1.0/cluster/members/node3/state, or set its DISK_GB inventory",
    );
    expect(capacityReportHint("VCPU", "node3")).toContain(
      "sysinfo.logical_cpus in PUT /1.0/cluster/members/node3/state",
    );
    expect(capacityReportHint("MEMORY_MB")).toContain(
      "memory.total in PUT /1.0/cluster/members/NAME/resources",
    );
    expect(capacityReportHint("CUSTOM_FPGA")).toBeUndefined();
  });
});
