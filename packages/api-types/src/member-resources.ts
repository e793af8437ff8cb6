import { z } from "zod";
import { goBool, goFloat, goInt, goSlice, goString, goStruct, goUint, goZero } from "./go-decoding.js";
import { ArchitectureSchema, UnsignedIntSchema } from "./primitives.js";

/*
 * A member's hardware report: LXD `api.Resources`, what `get_cluster_member_resources()`
 * returns and what `PUT /1.0/cluster/members/NAME/resources` accepts.
 *
 * Decoded as LXD's Go clients decode it (go-decoding.ts): a missing field is its zero
 * value, an unknown one is ignored, so reports from older LXD (no usb/pci/system sections)
 * and newer LXD or Incus (extra fields) are all accepted; wrong types and negative sizes
 * are refused. Fields LXD tags `omitempty` stay absent when not sent. The per-device detail
 * records (GPU/network cards, disks, USB/PCI devices, system/firmware) are kept verbatim as
 * any JSON object: Berth never reads them, it only hands them to scriptlets.
 */

/** An opaque hardware detail record, kept verbatim for scriptlets. */
export const HardwareRecordSchema = z.record(z.string(), z.unknown());

export const ResourcesCpuCacheSchema = goStruct({
  level: goUint,
  type: goString,
  size: goUint,
});

export const ResourcesCpuThreadSchema = goStruct({
  id: goInt,
  numa_node: goUint,
  thread: goUint,
  online: goBool,
  isolated: goBool,
});

export const ResourcesCpuCoreSchema = goStruct({
  core: goUint,
  die: goUint,
  threads: goSlice(ResourcesCpuThreadSchema),
  frequency: UnsignedIntSchema.optional(),
});

export const ResourcesCpuSocketSchema = goStruct({
  name: z.string().optional(),
  vendor: z.string().optional(),
  socket: goUint,
  cache: z.array(ResourcesCpuCacheSchema).nullish(),
  cores: goSlice(ResourcesCpuCoreSchema),
  frequency: UnsignedIntSchema.optional(),
  frequency_minimum: UnsignedIntSchema.optional(),
  frequency_turbo: UnsignedIntSchema.optional(),
  address_sizes: HardwareRecordSchema.nullish(),
});

/**
 * `total` is the number of CPU threads: the source of the derived `VCPU` inventory.
 * `architecture` is `""` when not reported (the member's architecture then defaults).
 */
export const ResourcesCpuSchema = goStruct({
  architecture: goZero(z.union([ArchitectureSchema, z.literal("")]), ""),
  sockets: goSlice(ResourcesCpuSocketSchema),
  total: goUint,
});
export type ResourcesCpu = z.infer<typeof ResourcesCpuSchema>;

export const ResourcesMemoryNodeSchema = goStruct({
  numa_node: goUint,
  hugepages_used: goUint,
  hugepages_total: goUint,
  used: goUint,
  total: goUint,
});

/** Bytes; `total` is the source of the derived `MEMORY_MB` inventory. */
export const ResourcesMemorySchema = goStruct({
  nodes: z.array(ResourcesMemoryNodeSchema).nullish(),
  hugepages_total: goUint,
  hugepages_used: goUint,
  hugepages_size: goUint,
  used: goUint,
  total: goUint,
});
export type ResourcesMemory = z.infer<typeof ResourcesMemorySchema>;

export const ResourcesGpuSchema = goStruct({
  cards: goSlice(HardwareRecordSchema),
  total: goUint,
});
export const ResourcesNetworkSchema = goStruct({
  cards: goSlice(HardwareRecordSchema),
  total: goUint,
});
export const ResourcesStorageSchema = goStruct({
  disks: goSlice(HardwareRecordSchema),
  total: goUint,
});
export const ResourcesUsbSchema = goStruct({
  devices: goSlice(HardwareRecordSchema),
  total: goUint,
});
export const ResourcesPciSchema = goStruct({
  devices: goSlice(HardwareRecordSchema),
  total: goUint,
});

/**
 * Incus's `load` section: its Go struct has no JSON tags, hence the capitalised keys.
 * LXD has none, so an absent section stays absent rather than reading as a zero load.
 */
export const ResourcesLoadSchema = z.object({
  Average1Min: goFloat,
  Average5Min: goFloat,
  Average10Min: goFloat,
  Processes: goUint,
});

export const ResourcesSchema = z.object({
  cpu: ResourcesCpuSchema,
  memory: ResourcesMemorySchema,
  gpu: ResourcesGpuSchema,
  network: ResourcesNetworkSchema,
  storage: ResourcesStorageSchema,
  usb: ResourcesUsbSchema,
  pci: ResourcesPciSchema,
  system: goZero(HardwareRecordSchema, {}),
  load: ResourcesLoadSchema.optional(),
});
export type Resources = z.infer<typeof ResourcesSchema>;
