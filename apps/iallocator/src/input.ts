/**
 * The iallocator input file as Ganeti writes it (`doc/iallocator.rst`),
 * validated with zod: the top-level cluster description and one request.
 * Ganeti sends more fields than an allocator needs; unknown keys pass.
 * Dynamic node figures are absent for offline and non-vm-capable nodes.
 *
 * Written with `zod/mini` (functions instead of methods) rather than
 * classic zod: the bundled `berth-iallocator` then carries only the parts
 * of zod it uses (about 30 KB instead of 450 KB), which Ganeti pays for on
 * every call. Same checks, same English messages (the locale below).
 */
import { en } from "zod/locales";
import * as z from "zod/mini";

// Classic zod installs English messages when it loads; zod/mini leaves that to us.
z.config(en());

/** zod's numbers are finite: NaN and the infinities fail as "expected number". */
const count = z.number();
const strings = z.array(z.string());
const optionalCount = z.optional(count);

const ispec = z.looseObject({
  "memory-size": optionalCount,
  "cpu-count": optionalCount,
  "disk-size": optionalCount,
  "disk-count": optionalCount,
  "nic-count": optionalCount,
  "spindle-use": optionalCount,
});

const ipolicy = z.looseObject({
  minmax: z.optional(z.array(z.looseObject({ min: ispec, max: ispec }))),
  "disk-templates": z.optional(strings),
  "vcpu-ratio": optionalCount,
  "spindle-ratio": optionalCount,
});

const nodeGroup = z.looseObject({
  name: z.string(),
  alloc_policy: z.enum(["preferred", "last_resort", "unallocable"]),
  networks: z._default(strings, []),
  ipolicy: z.optional(ipolicy),
});

const node = z.looseObject({
  group: z.string(),
  offline: z.boolean(),
  drained: z.boolean(),
  vm_capable: z._default(z.boolean(), true),
  tags: z._default(strings, []),
  ndparams: z._default(
    z.looseObject({
      exclusive_storage: z._default(z.boolean(), false),
      spindle_count: z._default(count, 1),
    }),
    { exclusive_storage: false, spindle_count: 1 },
  ),
  total_memory: optionalCount,
  free_memory: optionalCount,
  reserved_memory: optionalCount,
  total_disk: optionalCount,
  free_disk: optionalCount,
  total_spindles: optionalCount,
  free_spindles: optionalCount,
  total_cpus: optionalCount,
  reserved_cpus: optionalCount,
});

const disk = z.looseObject({ size: count, spindles: z.nullish(count) });
const nic = z.looseObject({ network: z.nullish(z.string()) });

/** What every instance (existing or requested) is sized by. */
const sized = {
  memory: count,
  vcpus: count,
  disks: z.array(disk),
  disk_template: z.string(),
  spindle_use: z._default(count, 1),
  tags: z._default(strings, []),
  nics: z._default(z.array(nic), []),
};

const instance = z.looseObject({ ...sized, nodes: strings });

const allocateRequest = z.looseObject({
  name: z.string(),
  required_nodes: count,
  ...sized,
  group_name: z.nullish(z.string()),
  "restrict-to-nodes": z.nullish(strings),
});

const request = z.discriminatedUnion("type", [
  z.extend(allocateRequest, { type: z.literal("allocate") }),
  z.looseObject({
    type: z.literal("multi-allocate"),
    instances: z.array(allocateRequest),
    /** Berth's addition: refuse the whole batch when one instance fits nowhere. */
    all_or_nothing: z._default(z.boolean(), false),
  }),
  z.looseObject({ type: z.literal("allocate-secondary"), name: z.string() }),
  z.looseObject({
    type: z.literal("relocate"),
    name: z.string(),
    required_nodes: optionalCount,
    relocate_from: strings,
  }),
  z.looseObject({
    type: z.literal("node-evacuate"),
    instances: strings,
    evac_mode: z.enum(["primary-only", "secondary-only", "all"]),
  }),
  z.looseObject({
    type: z.literal("change-group"),
    instances: strings,
    target_groups: strings,
  }),
]);

export const iallocatorInput = z.looseObject({
  version: optionalCount,
  cluster_tags: z._default(strings, []),
  nodegroups: z.record(z.string(), nodeGroup),
  nodes: z.record(z.string(), node),
  instances: z.record(z.string(), instance),
  request,
});

export type IallocatorInput = z.infer<typeof iallocatorInput>;
export type NodeInput = z.infer<typeof node>;
export type InstanceInput = z.infer<typeof instance>;
export type AllocateRequest = z.infer<typeof allocateRequest>;
export type IpolicyInput = z.infer<typeof ipolicy>;

/** zod's first issue as one line naming where: `key 'nodes.node1.free_memory': expected number, received string`. */
export function describeIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "invalid input";
  const where = issue.path.map(String).join(".");
  return where === "" ? issue.message : `key '${where}': ${issue.message}`;
}
