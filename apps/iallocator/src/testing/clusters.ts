/**
 * Iallocator inputs for tests and benchmarks: clusters of identical or
 * mixed nodes in several groups, with existing plain and DRBD instances,
 * and multi-allocate requests of new ones. Deterministic for a seed.
 */

export interface ClusterShape {
  nodes: number;
  groups: number;
  /** Existing instances spread over the nodes. */
  existing: number;
  /** New instances to multi-allocate. */
  requested: number;
  /** Share of DRBD instances (0..1), the rest plain. */
  drbdShare: number;
  /** Mark some nodes offline or drained. */
  unusableEvery?: number;
  /** Every new instance the same size (1024 MiB, 1 vCPU, one 4 GiB disk), as in the hail timings. */
  uniform?: boolean;
  seed: number;
}

/** A small linear congruential generator: reproducible inputs without a dependency. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const MEMORY = 32768;
const DISK = 1024 * 1024;

function ipolicy() {
  return {
    minmax: [
      {
        min: {
          "memory-size": 128,
          "cpu-count": 1,
          "disk-size": 512,
          "disk-count": 1,
          "nic-count": 1,
          "spindle-use": 1,
        },
        max: {
          "memory-size": 32768,
          "cpu-count": 8,
          "disk-size": 1048576,
          "disk-count": 16,
          "nic-count": 8,
          "spindle-use": 8,
        },
      },
    ],
    "disk-templates": ["plain", "drbd", "file", "ext", "diskless"],
    "vcpu-ratio": 4,
    "spindle-ratio": 32,
    std: {
      "memory-size": 128,
      "cpu-count": 1,
      "disk-size": 1024,
      "disk-count": 1,
      "nic-count": 1,
      "spindle-use": 1,
    },
  };
}

function instanceOf(random: () => number, drbdShare: number, uniform = false) {
  const template = random() < drbdShare ? "drbd" : "plain";
  const memory = uniform ? 1024 : [512, 1024, 2048, 4096][Math.floor(random() * 4)]!;
  const disk = uniform ? 4096 : [1024, 4096, 10240][Math.floor(random() * 3)]!;
  return {
    memory,
    vcpus: uniform ? 1 : 1 + Math.floor(random() * 2),
    disks: [{ size: disk, mode: "rw", spindles: 1 }],
    disk_template: template,
    spindle_use: 1,
    tags: [],
    nics: [{ mac: "aa:00:00:00:00:01", ip: null, bridge: null }],
    os: "debian-image",
    hypervisor: "xen-pvm",
    disk_space_total: disk,
  };
}

export function generateCluster(shape: ClusterShape) {
  const random = seeded(shape.seed);
  const nodegroups: Record<string, unknown> = {};
  for (let g = 0; g < shape.groups; g++) {
    nodegroups[`uuid-group-${g}`] = {
      name: `group${g}`,
      alloc_policy: g === shape.groups - 1 && shape.groups > 1 ? "last_resort" : "preferred",
      networks: [],
      ipolicy: ipolicy(),
      tags: [],
    };
  }
  const nodes: Record<string, Record<string, unknown>> = {};
  const names: string[][] = Array.from({ length: shape.groups }, () => []);
  for (let n = 0; n < shape.nodes; n++) {
    const group = n % shape.groups;
    const name = `node${n}`;
    const unusable = shape.unusableEvery !== undefined && n % shape.unusableEvery === shape.unusableEvery - 1;
    nodes[name] = {
      group: `uuid-group-${group}`,
      offline: false,
      drained: unusable,
      vm_capable: true,
      master_candidate: true,
      master_capable: true,
      tags: [],
      ndparams: { spindle_count: 1, exclusive_storage: false },
      total_memory: MEMORY,
      free_memory: MEMORY - 1024,
      reserved_memory: 1024,
      total_disk: DISK,
      free_disk: DISK,
      total_spindles: 12,
      free_spindles: 12,
      total_cpus: 16,
      reserved_cpus: 1,
    };
    if (!unusable) names[group]!.push(name);
  }
  const instances: Record<string, unknown> = {};
  for (let i = 0; i < shape.existing; i++) {
    const spec = instanceOf(random, shape.drbdShare);
    const members = names[i % shape.groups]!;
    if (members.length < 2) continue;
    const p = Math.floor(random() * members.length);
    const s = (p + 1 + Math.floor(random() * (members.length - 1))) % members.length;
    const nodeNames = spec.disk_template === "drbd" ? [members[p]!, members[s]!] : [members[p]!];
    const primary = nodes[nodeNames[0]!]!;
    if ((primary.free_memory as number) - spec.memory < 4096) continue;
    primary.free_memory = (primary.free_memory as number) - spec.memory;
    for (const node of nodeNames)
      nodes[node]!.free_disk = (nodes[node]!.free_disk as number) - spec.disks[0]!.size;
    instances[`existing${i}`] = { ...spec, nodes: nodeNames, admin_state: "up" };
  }
  const requested = Array.from({ length: shape.requested }, (_, i) => {
    const spec = instanceOf(random, shape.drbdShare, shape.uniform);
    return {
      ...spec,
      name: `new${i}`,
      required_nodes: spec.disk_template === "drbd" ? 2 : 1,
    };
  });
  return {
    version: 2,
    cluster_name: "cluster.example.com",
    cluster_tags: [],
    enabled_hypervisors: ["xen-pvm"],
    ipolicy: ipolicy(),
    nodegroups,
    nodes,
    instances,
    request: { type: "multi-allocate", instances: requested },
  };
}
