import { z } from "zod";
import { InstancesPostSchema } from "./instances.js";
import {
  InstanceNameSchema,
  ProfileNameSchema,
  ProjectNameSchema,
  ResourceClassNameSchema,
} from "./names.js";
import { ConfigMapSchema, DevicesMapSchema, UnsignedIntSchema } from "./primitives.js";

/**
 * Why the placement runs (`request.reason`): `new` (create, bulk create), `evacuation`,
 * `relocation` (healing a dead member, moves to `@group`), `rebalance` (Incus >= 7.0).
 */
export const PLACEMENT_REASONS = ["new", "evacuation", "relocation", "rebalance"] as const;
export const PlacementReasonSchema = z.enum(PLACEMENT_REASONS);
export type PlacementReason = z.infer<typeof PlacementReasonSchema>;

/**
 * The scriptlet's `request` (LXD/Incus `scriptlet.InstancePlacement`): the create body with
 * `config` and `devices` already expanded with the profiles, plus `reason` and `project`.
 * The fields the host always fills (name, type, config, devices, profiles) are required;
 * the rest stay optional and reach the scriptlet as `None`/`[]`/`{}` when absent.
 * Relocation requests may have `type: ""` (LXD's "any type").
 */
export const InstancePlacementSchema = z.strictObject({
  ...InstancesPostSchema.shape,
  name: z.union([InstanceNameSchema, z.literal("")]),
  type: z.enum(["container", "virtual-machine", ""]),
  config: ConfigMapSchema,
  devices: DevicesMapSchema,
  profiles: z.array(ProfileNameSchema),
  reason: PlacementReasonSchema,
  project: ProjectNameSchema,
});
export type InstancePlacement = z.infer<typeof InstancePlacementSchema>;

/**
 * What `get_instance_resources()` returns: LXD's three byte/core counts plus Berth's
 * `resource_classes`, the full resource request (class -> amount, custom classes included).
 */
export const InstanceResourcesSchema = z.strictObject({
  cpu_cores: UnsignedIntSchema,
  memory_size: UnsignedIntSchema,
  root_disk_size: UnsignedIntSchema,
  resource_classes: z.record(ResourceClassNameSchema, UnsignedIntSchema),
});
export type InstanceResources = z.infer<typeof InstanceResourcesSchema>;
