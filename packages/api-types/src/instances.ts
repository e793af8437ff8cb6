import { z } from "zod";
import {
  FlavorNameSchema,
  InstanceNameSchema,
  MemberNameSchema,
  PlacementGroupNameSchema,
  ProfileNameSchema,
  ProjectNameSchema,
  ResourceClassNameSchema,
} from "./names.js";
import {
  ArchitectureSchema,
  ConfigMapSchema,
  DescriptionSchema,
  DevicesMapSchema,
  TimestampSchema,
  UnsignedIntSchema,
} from "./primitives.js";

/** `container`, `virtual-machine`, or `""` (LXD's "any", used in relocation requests). */
export const InstanceTypeSchema = z.enum(["container", "virtual-machine", ""]);
export type InstanceType = z.infer<typeof InstanceTypeSchema>;

/** Config key through which an instance joins a placement group (its value names the group). */
export const PLACEMENT_GROUP_CONFIG_KEY = "placement.group";

/**
 * Instance config: string values, as in LXD. The one key Berth interprets at the wire level is
 * `placement.group`, which must name a placement group; size and CPU keys (`limits.*`) are
 * parsed by @berth/resources, which knows LXD's size syntax.
 */
export const InstanceConfigSchema = ConfigMapSchema.superRefine((config, ctx) => {
  const group = config[PLACEMENT_GROUP_CONFIG_KEY];
  if (group !== undefined && !PlacementGroupNameSchema.safeParse(group).success) {
    ctx.addIssue({
      code: "custom",
      path: [PLACEMENT_GROUP_CONFIG_KEY],
      message: "must name a placement group (letters, digits and hyphens, starting with a letter)",
      input: group,
    });
  }
});

/**
 * LXD `InstanceSource`: where the root file system comes from. Berth never fetches images;
 * it reads `type`, `alias`/`fingerprint`, `server` and `project` to resolve architectures.
 * All fields are optional as in LXD (`omitempty`).
 */
export const InstanceSourceSchema = z.strictObject({
  type: z.enum(["image", "none", "copy", "migration", "conversion"]).optional(),
  certificate: z.string().optional(),
  alias: z.string().optional(),
  fingerprint: z.string().optional(),
  properties: ConfigMapSchema.optional(),
  server: z.string().optional(),
  secret: z.string().optional(),
  protocol: z.enum(["lxd", "incus", "simplestreams", "oci", ""]).optional(),
  "base-image": z.string().optional(),
  mode: z.enum(["pull", "push", "relay", ""]).optional(),
  operation: z.string().optional(),
  secrets: ConfigMapSchema.optional(),
  source: z.string().optional(),
  live: z.boolean().optional(),
  instance_only: z.boolean().optional(),
  container_only: z.boolean().optional(),
  refresh: z.boolean().optional(),
  refresh_exclude_older: z.boolean().optional(),
  project: z.string().optional(),
  allow_inconsistent: z.boolean().optional(),
});
export type InstanceSource = z.infer<typeof InstanceSourceSchema>;

/** The editable part of an instance (LXD `InstancePut`), the body of `PUT /1.0/instances/NAME`. */
export const InstancePutSchema = z.strictObject({
  architecture: z.union([ArchitectureSchema, z.literal("")]).optional(),
  config: InstanceConfigSchema.optional(),
  devices: DevicesMapSchema.optional(),
  ephemeral: z.boolean().optional(),
  profiles: z.array(ProfileNameSchema).optional(),
  stateful: z.boolean().optional(),
  description: DescriptionSchema.optional(),
});
export type InstancePut = z.infer<typeof InstancePutSchema>;

/** `PATCH /1.0/instances/NAME`: any subset of the PUT fields; config/devices are merged key by key. */
export const InstancePatchSchema = InstancePutSchema.partial();
export type InstancePatch = z.infer<typeof InstancePatchSchema>;

/**
 * The create body (LXD `InstancesPost`) plus Berth's additions:
 * - `flavor`: a stored flavor supplying base vcpus/memory/disk and extra specs;
 * - `forthcoming`: make a reservation (Ganeti forthcoming instance) instead of an instance;
 * - `uuid`: a client-chosen identity. Reservations are addressable by UUID; the server
 *   assigns one when it is omitted (Ganeti returns the UUID of a forthcoming instance).
 * As with Ganeti reservations, every other field is optional, including `name`
 * (LXD also generates a name when none is given).
 * `profiles` absent means "the default profile"; `[]` means "no profiles" (LXD semantics),
 * so no default is filled in here.
 */
export const InstancesPostSchema = z.strictObject({
  ...InstancePutSchema.shape,
  name: InstanceNameSchema.optional(),
  type: InstanceTypeSchema.optional(),
  source: InstanceSourceSchema.optional(),
  instance_type: z.string().max(255).optional(),
  start: z.boolean().optional(),
  restore: z.string().optional(),
  disk_only: z.boolean().optional(),
  flavor: FlavorNameSchema.optional(),
  forthcoming: z.boolean().optional(),
  uuid: z.uuid().optional(),
});
export type InstancesPost = z.infer<typeof InstancesPostSchema>;

/**
 * `POST /1.0/instances/NAME`: rename (`name`) and, with `?target=`, move. The LXD migration
 * fields are accepted so LXD clients' move bodies validate; Berth moves are record edits.
 */
export const InstancePostSchema = z.strictObject({
  /** `""` is Go's zero value, what LXD's client sends when it asks a source for a migration: no rename. */
  name: z.union([InstanceNameSchema, z.literal("")]).optional(),
  migration: z.boolean().optional(),
  live: z.boolean().optional(),
  instance_only: z.boolean().optional(),
  container_only: z.boolean().optional(),
  pool: z.string().optional(),
  /** `""` (what LXD's client sends) means the request's project. */
  project: z.union([ProjectNameSchema, z.literal("")]).optional(),
  allow_inconsistent: z.boolean().optional(),
  /** LXD `InstancePostTarget`: a push migration to another server, which Berth refuses (it moves records). */
  target: z
    .strictObject({
      certificate: z.string().optional(),
      operation: z.string().optional(),
      secrets: ConfigMapSchema.optional(),
    })
    .optional(),
});
export type InstancePost = z.infer<typeof InstancePostSchema>;

/**
 * `POST /1.0/instances/NAME/commit`: turn a reservation into a real instance. A reservation
 * created without a name must be given one now (Ganeti requires all mandatory fields at commit).
 */
export const InstanceCommitPostSchema = z.strictObject({
  name: InstanceNameSchema.optional(),
});
export type InstanceCommitPost = z.infer<typeof InstanceCommitPostSchema>;

/**
 * An instance as Berth stores and returns it (LXD `api.Instance`, the fields a placement
 * service knows) plus Berth's `uuid`, `forthcoming` and `flavor` (`""` when none).
 * `location` is the member it is placed on. A reservation made without a name has `name: ""`
 * and is addressed by its UUID until it is named.
 */
export const InstanceSchema = z
  .strictObject({
    name: z.union([InstanceNameSchema, z.literal("")]),
    uuid: z.uuid(),
    description: DescriptionSchema,
    type: z.enum(["container", "virtual-machine"]),
    architecture: z.union([ArchitectureSchema, z.literal("")]),
    config: ConfigMapSchema,
    devices: DevicesMapSchema,
    expanded_config: ConfigMapSchema,
    expanded_devices: DevicesMapSchema,
    profiles: z.array(ProfileNameSchema),
    ephemeral: z.boolean(),
    stateful: z.boolean(),
    status: z.string(),
    status_code: UnsignedIntSchema,
    location: MemberNameSchema,
    project: ProjectNameSchema,
    created_at: TimestampSchema,
    last_used_at: TimestampSchema,
    flavor: z.union([FlavorNameSchema, z.literal("")]),
    forthcoming: z.boolean(),
    /** What the instance holds per resource class on its member (a reservation's too): `{"VCPU": 2, ...}`. */
    resources: z.record(ResourceClassNameSchema, UnsignedIntSchema),
  })
  .refine((instance) => instance.name !== "" || instance.forthcoming, {
    path: ["name"],
    message: "only a reservation (forthcoming) may be unnamed",
  });
export type Instance = z.infer<typeof InstanceSchema>;
