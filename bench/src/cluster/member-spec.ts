import type { InventoryRecord, NewMember } from "@berth/engine";
import {
  AARCH64_EVERY,
  CUSTOM_CLASSES,
  FPGA_EVERY,
  FPGAS_PER_MEMBER,
  GPU_EVERY,
  GPUS_PER_MEMBER,
} from "./catalog.js";

const GIB_MIB = 1024;

function inventory(total: number, allocationRatio: number, reserved = 0): InventoryRecord {
  return { total, reserved, minUnit: 1, maxUnit: total, stepSize: 1, allocationRatio, source: "explicit" };
}

/** Member names are 1-based and zero-padded so they sort in join order. */
export function memberName(index: number): string {
  return `member-${String(index).padStart(5, "0")}`;
}

export function memberArchitecture(index: number): string {
  return index % AARCH64_EVERY === 0 ? "aarch64" : "x86_64";
}

export function hasGpus(index: number): boolean {
  return index % GPU_EVERY === 0;
}

export function hasFpga(index: number): boolean {
  return index % FPGA_EVERY === 0;
}

/** Three hardware generations, so capacity differs between members. */
function generationOf(index: number): 0 | 1 | 2 {
  return (index % 3) as 0 | 1 | 2;
}

export function memberInventories(index: number): Record<string, InventoryRecord> {
  const generation = generationOf(index);
  const cores = [64, 96, 128][generation]!;
  const memoryGiB = [384, 512, 768][generation]!;
  const diskGiB = [6000, 8000, 12000][generation]!;
  const inventories: Record<string, InventoryRecord> = {
    VCPU: inventory(cores, 4),
    MEMORY_MB: inventory(memoryGiB * GIB_MIB, 1, 8 * GIB_MIB),
    DISK_GB: inventory(diskGiB, 1),
  };
  if (hasGpus(index)) inventories[CUSTOM_CLASSES.gpu] = inventory(GPUS_PER_MEMBER, 1);
  if (hasFpga(index)) inventories[CUSTOM_CLASSES.fpga] = inventory(FPGAS_PER_MEMBER, 1);
  return inventories;
}

export function memberTraits(index: number): string[] {
  const traits = memberArchitecture(index) === "x86_64" ? ["HW_CPU_X86_AVX2"] : ["HW_CPU_AARCH64_SVE"];
  if (index % 2 === 0) traits.push("STORAGE_DISK_SSD");
  return traits;
}

/**
 * An LXD `ClusterMemberState` as a member would report it: load, memory and
 * the default storage pool, varied deterministically per member so a
 * scriptlet that ranks by free memory has a real choice to make.
 */
export function memberState(index: number): Record<string, unknown> {
  const totalRam = memberInventories(index).MEMORY_MB!.total * 1024 * 1024;
  const freeFraction = ((index * 7919) % 1000) / 1000;
  const freeRam = Math.round(totalRam * (0.05 + 0.9 * freeFraction));
  const poolTotal = memberInventories(index).DISK_GB!.total * 1024 ** 3;
  return {
    sysinfo: {
      uptime: 86_400 + index,
      load_averages: [((index * 31) % 400) / 100, ((index * 17) % 400) / 100, ((index * 13) % 400) / 100],
      processes: 400 + (index % 600),
      total_ram: totalRam,
      free_ram: freeRam,
      shared_ram: 0,
      buffered_ram: Math.round(totalRam * 0.02),
      total_swap: 0,
      free_swap: 0,
      logical_cpus: memberInventories(index).VCPU!.total,
    },
    storage_pools: {
      default: {
        inodes: { used: 100_000 + index, total: 50_000_000 },
        space: { used: Math.round(poolTotal * freeFraction * 0.5), total: poolTotal },
      },
    },
  };
}

/** Member `index` (1-based) of a synthetic cluster, online as of `heartbeatAt`. */
export function memberSpec(index: number, heartbeatAt: string): NewMember {
  return {
    name: memberName(index),
    url: `https://${memberName(index)}.cluster.test:8443`,
    architecture: memberArchitecture(index),
    description: "",
    failureDomain: `rack-${String(index % 40).padStart(2, "0")}`,
    roles: [],
    groups: [],
    config: { "scheduler.instance": "all" },
    traits: memberTraits(index),
    evacuated: false,
    lastHeartbeat: heartbeatAt,
    state: memberState(index),
    resources: null,
    inventories: memberInventories(index),
  };
}

/**
 * An LXD `api.Resources` report matching `memberInventories(index)`: one
 * socket with one core per thread, the member's memory, no devices; the
 * free-form `system` record carries the member's name.
 */
export function memberResources(index: number): Record<string, unknown> {
  const inventories = memberInventories(index);
  const threads = inventories.VCPU!.total;
  const noDevices = (key: string) => ({ [key]: [], total: 0 });
  return {
    cpu: {
      architecture: memberArchitecture(index),
      sockets: [
        {
          socket: 0,
          cores: Array.from({ length: threads }, (_, core) => ({
            core,
            die: 0,
            threads: [{ id: core, numa_node: 0, thread: 0, online: true, isolated: false }],
          })),
        },
      ],
      total: threads,
    },
    memory: {
      nodes: [],
      hugepages_total: 0,
      hugepages_used: 0,
      hugepages_size: 2097152,
      used: 0,
      total: inventories.MEMORY_MB!.total * 1024 * 1024,
    },
    gpu: noDevices("cards"),
    network: noDevices("cards"),
    storage: noDevices("disks"),
    usb: noDevices("devices"),
    pci: noDevices("devices"),
    system: { product: memberName(index), type: "physical" },
  };
}
