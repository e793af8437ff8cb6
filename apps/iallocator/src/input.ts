/**
 * The iallocator input file as Ganeti writes it (`doc/iallocator.rst`),
 * validated with zod: the top-level cluster description and one request.
 * Ganeti sends more fields than an allocator needs; unknown keys pass.
 * Dynamic node figures are absent for offline and non-vm-capable nodes.
 */
import { z } from "zod";

const count = z.number().finite();

const ispec = z
  .object({
    "memory-size": count.optional(),
    "cpu-count": count.optional(),
    "disk-size": count.optional(),
    "disk-count": count.optional(),
    "nic-count": count.optional(),
    "spindle-use": count.optional(),
  })
  .loose();

const ipolicy = z
  .object({
    minmax: z.array(z.object({ min: ispec, max: ispec }).loose()).optional(),
    "disk-templates": z.array(z.string()).optional(),
    "vcpu-ratio": count.optional(),
    "spindle-ratio": count.optional(),
  })
  .loose();

const nodeGroup = z
  .object({
    name: z.string(),
    alloc_policy: z.enum(["preferred", "last_resort", "unallocable"]),
    networks: z.array(z.string()).default([]),
    ipolicy: ipolicy.optional(),
  })
  .loose();

const node = z
  .object({
    group: z.string(),
    offline: z.boolean(),
    drained: z.boolean(),
    vm_capable: z.boolean().default(true),
    tags: z.array(z.string()).default([]),
    ndparams: z
      .object({ exclusive_storage: z.boolean().default(false), spindle_count: count.default(1) })
      .loose()
      .default({ exclusive_storage: false, spindle_count: 1 }),
    total_memory: count.optional(),
    free_memory: count.optional(),
    reserved_memory: count.optional(),
    total_disk: count.optional(),
    free_disk: count.optional(),
    total_spindles: count.optional(),
    free_spindles: count.optional(),
    total_cpus: count.optional(),
    reserved_cpus: count.optional(),
  })
  .loose();

const disk = z.object({ size: count, spindles: count.nullish() }).loose();
const nic = z.object({ network: z.string().nullish() }).loose();

/** What every instance (existing or requested) is sized by. */
const sized = {
  memory: count,
  vcpus: count,
  disks: z.array(disk),
  disk_template: z.string(),
  spindle_use: count.default(1),
  tags: z.array(z.string()).default([]),
  nics: z.array(nic).default([]),
};

const instance = z.object({ ...sized, nodes: z.array(z.string()) }).loose();

const allocateRequest = z
  .object({
    name: z.string(),
    required_nodes: count,
    ...sized,
    group_name: z.string().nullish(),
    "restrict-to-nodes": z.array(z.string()).nullish(),
  })
  .loose();

const request = z.discriminatedUnion("type", [
  allocateRequest.extend({ type: z.literal("allocate") }),
  z
    .object({
      type: z.literal("multi-allocate"),
      instances: z.array(allocateRequest),
      /** Berth's addition: refuse the whole batch when one instance fits nowhere. */
      all_or_nothing: z.boolean().default(false),
    })
    .loose(),
  z.object({ type: z.literal("allocate-secondary"), name: z.string() }).loose(),
  z
    .object({
      type: z.literal("relocate"),
      name: z.string(),
      required_nodes: count.optional(),
      relocate_from: z.array(z.string()),
    })
    .loose(),
  z
    .object({
      type: z.literal("node-evacuate"),
      instances: z.array(z.string()),
      evac_mode: z.enum(["primary-only", "secondary-only", "all"]),
    })
    .loose(),
  z
    .object({
      type: z.literal("change-group"),
      instances: z.array(z.string()),
      target_groups: z.array(z.string()),
    })
    .loose(),
]);

export const iallocatorInput = z
  .object({
    version: count.optional(),
    cluster_tags: z.array(z.string()).default([]),
    nodegroups: z.record(z.string(), nodeGroup),
    nodes: z.record(z.string(), node),
    instances: z.record(z.string(), instance),
    request,
  })
  .loose();

export type IallocatorInput = z.infer<typeof iallocatorInput>;
export type NodeInput = z.infer<typeof node>;
export type InstanceInput = z.infer<typeof instance>;
export type AllocateRequest = z.infer<typeof allocateRequest>;
export type IpolicyInput = z.infer<typeof ipolicy>;

/** zod's first issue as one line naming where: `key 'nodes.node1.free_memory': expected number, received string`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "invalid input";
  const where = issue.path.map(String).join(".");
  return where === "" ? issue.message : `key '${where}': ${issue.message}`;
}
