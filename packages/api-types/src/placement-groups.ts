import { z } from "zod";
import { PlacementGroupNameSchema, ProjectNameSchema } from "./names.js";
import { DescriptionSchema } from "./primitives.js";

/**
 * Placement groups (the LXD >= 6.6 concept): `spread` puts members of the group on distinct
 * cluster members, `compact` on as few as possible. `strict` rigor fails a placement that
 * cannot honour the policy; `permissive` falls back to the best effort.
 * Instances join with the config key `placement.group`. Groups are project-scoped.
 * `PLACEMENT_POLICIES` and `PLACEMENT_RIGORS` are the one list of each: the engine, the
 * SQLite schema and the CLI take theirs from here.
 */
export const PLACEMENT_POLICIES = ["spread", "compact"] as const;
export const PLACEMENT_RIGORS = ["strict", "permissive"] as const;
export const PlacementPolicySchema = z.enum(PLACEMENT_POLICIES);
export type PlacementPolicy = z.infer<typeof PlacementPolicySchema>;
export const PlacementRigorSchema = z.enum(PLACEMENT_RIGORS);
export type PlacementRigor = z.infer<typeof PlacementRigorSchema>;

export const PlacementGroupPutSchema = z.strictObject({
  description: DescriptionSchema,
  policy: PlacementPolicySchema,
  rigor: PlacementRigorSchema,
});
export type PlacementGroupPut = z.infer<typeof PlacementGroupPutSchema>;

export const PlacementGroupPatchSchema = PlacementGroupPutSchema.partial();
export type PlacementGroupPatch = z.infer<typeof PlacementGroupPatchSchema>;

/** `POST /1.0/placement-groups`; `rigor` defaults to `strict`. */
export const PlacementGroupsPostSchema = z.strictObject({
  name: PlacementGroupNameSchema,
  description: DescriptionSchema.optional(),
  policy: PlacementPolicySchema,
  rigor: PlacementRigorSchema.default("strict"),
});
export type PlacementGroupsPost = z.infer<typeof PlacementGroupsPostSchema>;

/** `POST /1.0/placement-groups/NAME`: rename. */
export const PlacementGroupPostSchema = z.strictObject({ name: PlacementGroupNameSchema });
export type PlacementGroupPost = z.infer<typeof PlacementGroupPostSchema>;

export const PlacementGroupSchema = z.strictObject({
  name: PlacementGroupNameSchema,
  ...PlacementGroupPutSchema.shape,
  project: ProjectNameSchema,
  used_by: z.array(z.string()),
});
export type PlacementGroup = z.infer<typeof PlacementGroupSchema>;
