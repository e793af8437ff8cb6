import { z } from "zod";
import { PlacementGroupNameSchema, ProjectNameSchema } from "./names.js";
import { ConfigMapSchema, DescriptionSchema } from "./primitives.js";

/**
 * Placement groups in LXD 6.6's wire format (`PlacementGroup`,
 * `PlacementGroupsPost`, `PlacementGroupPut` of canonical/lxd
 * shared/api/placement_group.go): `name`, `description`, `project`,
 * `used_by` and a `config` map with `policy` (`spread` puts the group's
 * instances on distinct members, `compact` on as few as possible), `rigor`
 * (`strict` fails a placement that cannot honour the policy, `permissive`
 * falls back to the best effort) and free-form `user.*` keys; Berth adds
 * `topology` (count per value of a member topology key instead of per
 * member). The engine validates the map with LXD's texts. Instances join
 * with the config key `placement.group`. Groups are project-scoped.
 *
 * Berth's earlier format took `policy` and `rigor` as top-level fields; the
 * bodies still accept them (merged into `config`; a value given both ways
 * must agree). `PLACEMENT_POLICIES` and `PLACEMENT_RIGORS` are the one list
 * of each: the engine, the SQL schema and the CLI take theirs from here.
 */
export const PLACEMENT_POLICIES = ["spread", "compact"] as const;
export const PLACEMENT_RIGORS = ["strict", "permissive"] as const;
export const PlacementPolicySchema = z.enum(PLACEMENT_POLICIES);
export type PlacementPolicy = z.infer<typeof PlacementPolicySchema>;
export const PlacementRigorSchema = z.enum(PLACEMENT_RIGORS);
export type PlacementRigor = z.infer<typeof PlacementRigorSchema>;

/** The top-level fields of Berth's earlier format (still accepted, merged into `config`). */
const legacyFields = {
  policy: PlacementPolicySchema.optional(),
  rigor: PlacementRigorSchema.optional(),
};

/** `PUT /1.0/placement-groups/NAME`: description and config replaced (LXD `PlacementGroupPut`). */
export const PlacementGroupPutSchema = z.strictObject({
  description: DescriptionSchema.optional(),
  config: ConfigMapSchema.optional(),
  ...legacyFields,
});
export type PlacementGroupPut = z.infer<typeof PlacementGroupPutSchema>;

/** `PATCH`: the description if given; config merged key by key (`""` unsets a key). */
export const PlacementGroupPatchSchema = PlacementGroupPutSchema;
export type PlacementGroupPatch = z.infer<typeof PlacementGroupPatchSchema>;

/**
 * `POST /1.0/placement-groups` (LXD `PlacementGroupsPost`). With `config`,
 * `policy` and `rigor` are both required (LXD); a body in the earlier
 * format without any `config` still gets `rigor` `strict` by default.
 */
export const PlacementGroupsPostSchema = z.strictObject({
  name: PlacementGroupNameSchema,
  ...PlacementGroupPutSchema.shape,
});
export type PlacementGroupsPost = z.infer<typeof PlacementGroupsPostSchema>;

/** `POST /1.0/placement-groups/NAME`: rename. */
export const PlacementGroupPostSchema = z.strictObject({ name: PlacementGroupNameSchema });
export type PlacementGroupPost = z.infer<typeof PlacementGroupPostSchema>;

/** What GET answers: LXD's fields (`config` holds `policy` and `rigor`). */
export const PlacementGroupSchema = z.strictObject({
  name: PlacementGroupNameSchema,
  description: DescriptionSchema,
  config: ConfigMapSchema,
  project: ProjectNameSchema,
  used_by: z.array(z.string()),
});
export type PlacementGroup = z.infer<typeof PlacementGroupSchema>;
