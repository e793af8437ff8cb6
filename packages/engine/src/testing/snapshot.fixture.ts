/** Small handed-in clusters for the snapshot placement's tests. */
import { SnapshotCluster, type SnapshotNodeInput } from "../ganeti/cluster.js";
import type { InstancePolicy } from "../ganeti/policy.js";
import type { InstanceSpec } from "../ganeti/spec.js";

export const POLICY: InstancePolicy = {
  bands: [{ min: { memorySize: 128, diskSize: 128 }, max: { memorySize: 16384, diskSize: 102400 } }],
  diskTemplates: [],
  vcpuRatio: 4,
  spindleRatio: 32,
};

export function node(
  name: string,
  group: string,
  freeMemory: number,
  extra: Partial<SnapshotNodeInput> = {},
) {
  return {
    name,
    group,
    usable: true,
    tags: [],
    totalMemory: 8192,
    freeMemory,
    totalDisk: 100_000,
    freeDisk: 100_000,
    totalSpindles: 4,
    freeSpindles: 4,
    totalCpus: 4,
    reservedCpus: 0,
    spindleCount: 1,
    exclusiveStorage: false,
    ...extra,
  } satisfies SnapshotNodeInput;
}

export function spec(
  name: string,
  template: string,
  memory: number,
  extra: Partial<InstanceSpec> = {},
): InstanceSpec {
  return {
    name,
    memory,
    vcpus: 1,
    disks: [{ size: 1024, spindles: 1 }],
    spindleUse: 1,
    template,
    tags: [],
    networks: [],
    nicCount: 1,
    ...extra,
  };
}

export function clusterOf(nodes: SnapshotNodeInput[], options: { exclusion?: string[] } = {}) {
  return new SnapshotCluster(
    [
      { id: "g1", name: "one", allocPolicy: "preferred", networks: [], policy: POLICY },
      { id: "g2", name: "two", allocPolicy: "last_resort", networks: [], policy: POLICY },
    ],
    nodes,
    options.exclusion ?? [],
  );
}
