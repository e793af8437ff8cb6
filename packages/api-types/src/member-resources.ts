import { z } from "zod";
import { ArchitectureSchema, UnsignedIntSchema } from "./primitives.js";

/*
 * A member's hardware report: LXD `api.Resources`, what `get_cluster_member_resources()`
 * returns and what `PUT /1.0/cluster/members/NAME/resources` accepts.
 *
 * The parts Berth computes with (CPU threads, memory, totals) are strict. The per-device
 * detail records (GPU/network cards, disks, USB/PCI devices, system/firmware) are accepted as
 * any JSON object: LXD and Incus add fields to them in almost every release, Berth never reads
 * them, it only hands them to scriptlets, and refusing a newer LXD's report would take the
 * member out of scheduling for a cosmetic difference.
 */

/** An opaque hardware detail record, kept verbatim for scriptlets. */
export const HardwareRecordSchema = z.record(z.string(), z.unknown());

export const ResourcesCpuCacheSchema = z.strictObject({
  level: UnsignedIntSchema,
  type: z.string(),
  size: UnsignedIntSchema,
});

export const ResourcesCpuThreadSchema = z.strictObject({
  id: z.number().int(),
  numa_node: UnsignedIntSchema,
  thread: UnsignedIntSchema,
  online: z.boolean(),
  isolated: z.boolean(),
});

export const ResourcesCpuCoreSchema = z.strictObject({
  core: UnsignedIntSchema,
  die: UnsignedIntSchema,
  threads: z.array(ResourcesCpuThreadSchema),
  frequency: UnsignedIntSchema.optional(),
});

export const ResourcesCpuSocketSchema = z.strictObject({
  name: z.string().optional(),
  vendor: z.string().optional(),
  socket: UnsignedIntSchema,
  cache: z.array(ResourcesCpuCacheSchema).optional(),
  cores: z.array(ResourcesCpuCoreSchema),
  frequency: UnsignedIntSchema.optional(),
  frequency_minimum: UnsignedIntSchema.optional(),
  frequency_turbo: UnsignedIntSchema.optional(),
  address_sizes: HardwareRecordSchema.optional(),
});

/** `total` is the number of CPU threads: the source of the derived `VCPU` inventory. */
export const ResourcesCpuSchema = z.strictObject({
  architecture: ArchitectureSchema,
  sockets: z.array(ResourcesCpuSocketSchema),
  total: UnsignedIntSchema,
});
export type ResourcesCpu = z.infer<typeof ResourcesCpuSchema>;

export const ResourcesMemoryNodeSchema = z.strictObject({
  numa_node: UnsignedIntSchema,
  hugepages_used: UnsignedIntSchema,
  hugepages_total: UnsignedIntSchema,
  used: UnsignedIntSchema,
  total: UnsignedIntSchema,
});

/** Bytes; `total` is the source of the derived `MEMORY_MB` inventory. */
export const ResourcesMemorySchema = z.strictObject({
  nodes: z.array(ResourcesMemoryNodeSchema).optional(),
  hugepages_total: UnsignedIntSchema,
  hugepages_used: UnsignedIntSchema,
  hugepages_size: UnsignedIntSchema,
  used: UnsignedIntSchema,
  total: UnsignedIntSchema,
});
export type ResourcesMemory = z.infer<typeof ResourcesMemorySchema>;

export const ResourcesGpuSchema = z.strictObject({
  cards: z.array(HardwareRecordSchema),
  total: UnsignedIntSchema,
});
export const ResourcesNetworkSchema = z.strictObject({
  cards: z.array(HardwareRecordSchema),
  total: UnsignedIntSchema,
});
export const ResourcesStorageSchema = z.strictObject({
  disks: z.array(HardwareRecordSchema),
  total: UnsignedIntSchema,
});
export const ResourcesUsbSchema = z.strictObject({
  devices: z.array(HardwareRecordSchema),
  total: UnsignedIntSchema,
});
export const ResourcesPciSchema = z.strictObject({
  devices: z.array(HardwareRecordSchema),
  total: UnsignedIntSchema,
});

/** Incus's `load` section: its Go struct has no JSON tags, hence the capitalised keys. */
export const ResourcesLoadSchema = z.strictObject({
  Average1Min: z.number(),
  Average5Min: z.number(),
  Average10Min: z.number(),
  Processes: UnsignedIntSchema,
});

export const ResourcesSchema = z.strictObject({
  cpu: ResourcesCpuSchema,
  memory: ResourcesMemorySchema,
  gpu: ResourcesGpuSchema,
  network: ResourcesNetworkSchema,
  storage: ResourcesStorageSchema,
  usb: ResourcesUsbSchema,
  pci: ResourcesPciSchema,
  system: HardwareRecordSchema,
  load: ResourcesLoadSchema.optional(),
});
export type Resources = z.infer<typeof ResourcesSchema>;
