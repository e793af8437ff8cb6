/**
 * Ganeti's cluster description turned into the engine's snapshot cluster:
 * a translation only (field names, defaults, tag conventions); every rule
 * that decides a placement is the engine's. References are checked here,
 * so a node naming an unknown group or an instance an unknown node is an
 * input error, not a silent gap.
 */
import {
  type InstancePolicy,
  type InstanceSpec,
  OPEN_POLICY,
  SnapshotCluster,
  type SnapshotGroup,
  type SnapshotNodeInput,
  type SpecBound,
} from "@berth/engine/ganeti";
import type { IallocatorInput, IpolicyInput, NodeInput } from "./input.js";

/** An input that is well-formed but inconsistent: answered as a failed request. */
export class InputError extends Error {}

type Bound = NonNullable<IpolicyInput["minmax"]>[number]["min"];

function boundOf(spec: Bound): SpecBound {
  return {
    memorySize: spec["memory-size"],
    cpuCount: spec["cpu-count"],
    diskSize: spec["disk-size"],
    diskCount: spec["disk-count"],
    nicCount: spec["nic-count"],
    spindleUse: spec["spindle-use"],
  };
}

function policyOf(ipolicy: IpolicyInput | undefined): InstancePolicy {
  if (ipolicy === undefined) return OPEN_POLICY;
  return {
    bands: (ipolicy.minmax ?? []).map(({ min, max }) => ({ min: boundOf(min), max: boundOf(max) })),
    diskTemplates: ipolicy["disk-templates"] ?? [],
    vcpuRatio: ipolicy["vcpu-ratio"] ?? OPEN_POLICY.vcpuRatio,
    spindleRatio: ipolicy["spindle-ratio"] ?? OPEN_POLICY.spindleRatio,
  };
}

interface Sized {
  memory: number;
  vcpus: number;
  disks: { size: number; spindles?: number | null | undefined }[];
  disk_template: string;
  spindle_use: number;
  tags: string[];
  nics: { network?: string | null | undefined }[];
}

export function specOf(name: string, sized: Sized): InstanceSpec {
  return {
    name,
    memory: sized.memory,
    vcpus: sized.vcpus,
    disks: sized.disks.map((disk) => ({ size: disk.size, spindles: disk.spindles ?? undefined })),
    spindleUse: sized.spindle_use,
    template: sized.disk_template,
    tags: sized.tags,
    networks: sized.nics.flatMap((nic) => (nic.network == null ? [] : [nic.network])),
    nicCount: sized.nics.length,
  };
}

const DYNAMIC = ["total_memory", "free_memory", "total_disk", "free_disk", "total_cpus"] as const;

function nodeOf(name: string, node: NodeInput): SnapshotNodeInput {
  const usable = !node.offline && !node.drained && node.vm_capable;
  if (usable) {
    for (const key of DYNAMIC)
      if (node[key] === undefined)
        throw new InputError(`key 'nodes.${name}.${key}' not found (node is online)`);
  }
  return {
    name,
    group: node.group,
    usable,
    tags: node.tags,
    totalMemory: node.total_memory ?? 0,
    freeMemory: node.free_memory ?? 0,
    totalDisk: node.total_disk ?? 0,
    freeDisk: node.free_disk ?? 0,
    totalSpindles: node.total_spindles ?? 0,
    freeSpindles: node.free_spindles ?? 0,
    totalCpus: node.total_cpus ?? 0,
    reservedCpus: node.reserved_cpus ?? 0,
    spindleCount: node.ndparams.spindle_count,
    exclusiveStorage: node.ndparams.exclusive_storage,
  };
}

/** Cluster tags `htools:KIND:PREFIX`: the prefixes of one kind. */
function tagPrefixes(tags: readonly string[], kind: string): string[] {
  const marker = `htools:${kind}:`;
  return tags.filter((tag) => tag.startsWith(marker)).map((tag) => tag.slice(marker.length));
}

export function clusterOf(input: IallocatorInput): SnapshotCluster {
  const groups: SnapshotGroup[] = Object.entries(input.nodegroups).map(([id, group]) => ({
    id,
    name: group.name,
    allocPolicy: group.alloc_policy,
    networks: group.networks,
    policy: policyOf(group.ipolicy),
  }));
  const nodes = Object.entries(input.nodes).map(([name, node]) => {
    if (input.nodegroups[node.group] === undefined)
      throw new InputError(`node ${name} is in unknown node group ${node.group}`);
    return nodeOf(name, node);
  });
  const cluster = new SnapshotCluster(
    groups,
    nodes,
    tagPrefixes(input.cluster_tags, "iextags"),
    tagPrefixes(input.cluster_tags, "nlocation"),
    tagPrefixes(input.cluster_tags, "desiredlocation"),
  );
  for (const [name, instance] of Object.entries(input.instances)) {
    if (instance.nodes.length === 0) throw new InputError(`instance ${name} has no nodes`);
    for (const node of instance.nodes)
      if (input.nodes[node] === undefined)
        throw new InputError(`instance ${name} is on unknown node ${node}`);
    cluster.addExisting(specOf(name, instance), instance.nodes);
  }
  return cluster;
}
