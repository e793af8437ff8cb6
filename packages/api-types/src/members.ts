import { z } from "zod";
import { InventoryFillSchema } from "./inventories.js";
import { GroupNameSchema, MemberNameSchema, ResourceClassNameSchema, TraitNameSchema } from "./names.js";
import { ArchitectureSchema, ConfigMapSchema, DescriptionSchema, UnsignedIntSchema } from "./primitives.js";
import { TOPOLOGY_PREFIX, topologyKeyProblem } from "./topology.js";

/** `scheduler.instance` as LXD validates it: `all` (default), `group` (only via `@group`), `manual`. */
export const SCHEDULER_INSTANCE_VALUES = ["all", "group", "manual"] as const;

/**
 * Member config: `scheduler.instance` and free-form `user.*` keys, the keys LXD's member
 * config and scriptlets use, and Berth's `topology.<name>` keys (topology.ts: where the
 * member sits, for placement groups over a topology key). Anything else is refused,
 * naming the key.
 */
export const MemberConfigSchema = ConfigMapSchema.superRefine((config, ctx) => {
  for (const [key, value] of Object.entries(config)) {
    if (key === "scheduler.instance") {
      // "" unsets the key (back to the default "all").
      if (value !== "" && !(SCHEDULER_INSTANCE_VALUES as readonly string[]).includes(value)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: 'expected one of "all", "group", "manual"',
          input: value,
        });
      }
    } else if (key.startsWith(TOPOLOGY_PREFIX)) {
      const problem = value === "" ? undefined : topologyKeyProblem(key, value);
      if (problem !== undefined)
        ctx.addIssue({ code: "custom", path: [key], message: problem, input: value });
    } else if (!key.startsWith("user.") || key.length === "user.".length) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: "unknown member config key (allowed: scheduler.instance, topology.*, user.*)",
        input: value,
      });
    }
  }
});

/**
 * Roles LXD reports. Berth members are not LXD daemons, so roles are informational, but
 * the values are LXD's so scriptlets that test `"database" in m.roles` behave the same.
 */
export const MEMBER_ROLES = [
  "database",
  "database-leader",
  "database-standby",
  "database-client",
  "event-hub",
  "ovn-chassis",
] as const;
export const MemberRoleSchema = z.enum(MEMBER_ROLES);

/** LXD/Incus member statuses. Only `Online` members are candidates. */
export const MEMBER_STATUSES = [
  "Online",
  "Offline",
  "Evacuated",
  "Evacuating",
  "Restoring",
  "Blocked",
] as const;
export const MemberStatusSchema = z.enum(MEMBER_STATUSES);
export type MemberStatus = z.infer<typeof MemberStatusSchema>;

/**
 * The editable part of a member (LXD `ClusterMemberPut`) plus Berth's `traits`
 * (OpenStack Placement trait names). Body of `PUT /1.0/cluster/members/NAME`.
 */
export const ClusterMemberPutSchema = z.strictObject({
  roles: z.array(MemberRoleSchema),
  failure_domain: z.string().max(255),
  description: DescriptionSchema,
  config: MemberConfigSchema,
  groups: z.array(GroupNameSchema),
  /** Berth's own field, which LXD clients never send on their PUT: absent leaves the traits as they are. */
  traits: z.array(TraitNameSchema).optional(),
});
export type ClusterMemberPut = z.infer<typeof ClusterMemberPutSchema>;

/** `PATCH /1.0/cluster/members/NAME`: any subset of the PUT fields. */
export const ClusterMemberPatchSchema = ClusterMemberPutSchema.partial();
export type ClusterMemberPatch = z.infer<typeof ClusterMemberPatchSchema>;

/**
 * `POST /1.0/cluster/members`: register a member. Only `server_name` is required;
 * `architecture` defaults to what the member reports in its resources.
 */
export const ClusterMembersPostSchema = z.strictObject({
  server_name: MemberNameSchema,
  url: z.url().optional(),
  architecture: ArchitectureSchema.optional(),
  ...ClusterMemberPutSchema.partial().shape,
});
export type ClusterMembersPost = z.infer<typeof ClusterMembersPostSchema>;

/** `POST /1.0/cluster/members/NAME`: rename (LXD `ClusterMemberPost`). */
export const ClusterMemberPostSchema = z.strictObject({
  server_name: MemberNameSchema,
});
export type ClusterMemberPost = z.infer<typeof ClusterMemberPostSchema>;

/**
 * A member as listed and as passed to scriptlets in `candidate_members` (LXD `api.ClusterMember`):
 * `server_name`, `url`, `database`, `status`, `message`, `architecture`, the PUT fields,
 * and Berth's `traits`.
 */
export const ClusterMemberSchema = z.strictObject({
  server_name: MemberNameSchema,
  url: z.string(),
  database: z.boolean(),
  status: MemberStatusSchema,
  message: z.string(),
  architecture: z.union([ArchitectureSchema, z.literal("")]),
  ...ClusterMemberPutSchema.shape,
});
export type ClusterMember = z.infer<typeof ClusterMemberSchema>;

/** `POST /1.0/cluster/members/NAME/state` (LXD `ClusterMemberStatePost`). */
export const ClusterMemberStatePostSchema = z.strictObject({
  action: z.enum(["evacuate", "restore"]),
  /**
   * LXD's evacuation mode, as `lxc cluster evacuate` sends it (`""` by default): Berth always
   * re-places instances (per-instance `cluster.evacuate=stop` keeps one where it is), so the
   * modes that move instances are accepted and `stop` is not one of them.
   */
  mode: z.enum(["", "auto", "migrate", "live-migrate"]).optional(),
});
export type ClusterMemberStatePost = z.infer<typeof ClusterMemberStatePostSchema>;

/** A member group (LXD `ClusterGroup`). `members` lists member names. */
export const ClusterGroupPutSchema = z.strictObject({
  description: DescriptionSchema,
  members: z.array(MemberNameSchema),
});
export type ClusterGroupPut = z.infer<typeof ClusterGroupPutSchema>;

export const ClusterGroupPatchSchema = ClusterGroupPutSchema.partial();
export type ClusterGroupPatch = z.infer<typeof ClusterGroupPatchSchema>;

export const ClusterGroupsPostSchema = z.strictObject({
  name: GroupNameSchema,
  description: DescriptionSchema.optional(),
  members: z.array(MemberNameSchema).optional(),
});
export type ClusterGroupsPost = z.infer<typeof ClusterGroupsPostSchema>;

/** `POST /1.0/cluster/groups/NAME`: rename. */
export const ClusterGroupPostSchema = z.strictObject({ name: GroupNameSchema });
export type ClusterGroupPost = z.infer<typeof ClusterGroupPostSchema>;

export const ClusterGroupSchema = z.strictObject({
  name: GroupNameSchema,
  ...ClusterGroupPutSchema.shape,
});
export type ClusterGroup = z.infer<typeof ClusterGroupSchema>;

/**
 * `GET /1.0/cluster/members?recursion=2` (LXD's recursion=2: the full object): each member
 * with its inventories, their usage and capacity, and how many instances (reservations
 * included) it holds. One request fills a cluster view of 10,000 members.
 */
export const ClusterMemberFullSchema = z.strictObject({
  ...ClusterMemberSchema.shape,
  inventories: z.record(ResourceClassNameSchema, InventoryFillSchema),
  instance_count: UnsignedIntSchema,
});
export type ClusterMemberFull = z.infer<typeof ClusterMemberFullSchema>;
