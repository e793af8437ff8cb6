import { z } from "zod";
import { InstancesPostSchema } from "./instances.js";
import { FlavorNameSchema, MemberNameSchema, ProjectNameSchema } from "./names.js";
import { UnsignedIntSchema } from "./primitives.js";

/** Most flavors one capacity question may list (each is counted like the body itself). */
export const MAX_CAPACITY_FLAVORS = 64;

/**
 * `POST /1.0/cluster/capacity`: an instance create body (the shape of `POST /1.0/instances`;
 * `name` and `uuid` are ignored, every create of the count gets its own) and, optionally,
 * `flavors` to count as well in place of the body's sizing (Ganeti hspace's tiers).
 */
export const ClusterCapacityPostSchema = InstancesPostSchema.extend({
  flavors: z.array(FlavorNameSchema).max(MAX_CAPACITY_FLAVORS).optional(),
});
export type ClusterCapacityPost = z.infer<typeof ClusterCapacityPostSchema>;

/**
 * What stops more instances: a capacity code (`capacity:MEMORY_MB`, `lack:CUSTOM_GPU`,
 * `constraints:VCPU`), a candidate filter's code (`offline`, `evacuated`, `scheduler-manual`,
 * `group:NAME`, `arch:…`), a placement group's (`spread:NAME`, `compact:NAME`) or a project
 * limit's key (`limits.instances`, `limits.cpu`, …).
 */
const LimitedBySchema = z.string();

/** How many more a member (or a flavor) takes, and what stops it. */
function countedSchema<Name extends z.ZodType<string>>(name: Name) {
  return z.strictObject({ name, instances: UnsignedIntSchema, limited_by: LimitedBySchema });
}

export const MemberCapacitySchema = countedSchema(MemberNameSchema);
export type MemberCapacity = z.infer<typeof MemberCapacitySchema>;

/** One limit the project sets: its room, and how many more instances of the shape it lets in. */
export const ProjectLimitRoomSchema = z.strictObject({
  key: z.string(),
  max: z.number().min(0),
  used: z.number().min(0),
  /** `max - used` (never below 0). */
  room: z.number().min(0),
  per_instance: z.number().min(0),
  /** Null when the shape does not count against this limit. */
  instances: UnsignedIntSchema.nullable(),
});
export type ProjectLimitRoom = z.infer<typeof ProjectLimitRoomSchema>;

export const FlavorCapacitySchema = countedSchema(FlavorNameSchema);
export type FlavorCapacity = z.infer<typeof FlavorCapacitySchema>;

/**
 * The answer: how many more instances of the body fit now, created one after another by
 * Berth's own placement rules (exact while nothing else changes and no scriptlet is set),
 * where, and what stops each member and the total.
 */
export const ClusterCapacitySchema = z.strictObject({
  instances: UnsignedIntSchema,
  limited_by: LimitedBySchema,
  /** `closed-form`: summed per member; `simulation`: creates played one after another (strict groups, binding project limits). */
  counted_by: z.enum(["closed-form", "simulation"]),
  /** True when a placement scriptlet is configured: the count assumes the default order instead of running it. */
  scriptlet_ignored: z.boolean(),
  members: z.array(MemberCapacitySchema),
  project: z.strictObject({ name: ProjectNameSchema, limits: z.array(ProjectLimitRoomSchema) }),
  /** The largest multiple of the body's size that one member still takes as a single instance. */
  largest: z.strictObject({
    multiple: UnsignedIntSchema,
    location: MemberNameSchema.nullable(),
    resources: z.record(z.string(), z.number().min(0)),
  }),
  flavors: z.array(FlavorCapacitySchema),
  /** The largest (memory, then CPUs, then disk) of `flavors` of which one more fits. */
  largest_flavor: FlavorNameSchema.nullable(),
});
export type ClusterCapacity = z.infer<typeof ClusterCapacitySchema>;
