import { z } from "zod";
import { DecidedBySchema, ScriptletCostSchema, ScriptletLogLineSchema } from "./dry-run.js";
import {
  InstanceNameSchema,
  MemberNameSchema,
  PlacementGroupNameSchema,
  ProjectNameSchema,
} from "./names.js";
import { PlacementPolicySchema, PlacementRigorSchema } from "./placement-groups.js";
import { TimestampSchema, UnsignedIntSchema } from "./primitives.js";
import { RejectionGroupSchema } from "./rejections.js";
import { PLACEMENT_REASONS } from "./scriptlet.js";

/** What put an instance where it is: the scriptlet's reasons, and `restore` (back where it was evacuated from). */
export const DecisionReasonSchema = z.enum([...PLACEMENT_REASONS, "restore"]);

/**
 * Who chose the member: `target` (`?target=member`), `scriptlet` (`set_target`), `default`
 * (the first candidate: fewest instances, ties in join order, reordered by a placement
 * group), `rebalance` (the rebalancer's plan) or `restore`.
 */
export const DecisionMakerSchema = z.enum([...DecidedBySchema.options, "rebalance", "restore"]);

/**
 * `GET /1.0/instances/NAME/placement`: why the instance is on its member, as decided at
 * its last placement (create, evacuation, healing, move, rebalance, restore). Bounded:
 * `candidates.leading`, each group's `members` and `log` keep only their first entries
 * (`log_dropped` counts the lines left out).
 */
export const InstancePlacementRecordSchema = z.strictObject({
  instance: z.union([InstanceNameSchema, z.literal("")]),
  project: ProjectNameSchema,
  /** The member chosen (the instance's location since). */
  member: MemberNameSchema,
  decided_at: TimestampSchema,
  reason: DecisionReasonSchema,
  decided_by: DecisionMakerSchema,
  /** The target the caller gave (`member` or `@group`), or null. */
  target: z.string().nullable(),
  placement_group: z
    .strictObject({
      name: PlacementGroupNameSchema,
      policy: PlacementPolicySchema,
      rigor: PlacementRigorSchema,
    })
    .nullable(),
  /** Members in the cluster at the time. */
  members: UnsignedIntSchema,
  /** Members that passed every filter, and the first of them as the decision saw them; null without a search. */
  candidates: z.strictObject({ count: UnsignedIntSchema, leading: z.array(MemberNameSchema) }).nullable(),
  rejections: z.array(RejectionGroupSchema),
  log: z.array(ScriptletLogLineSchema),
  log_dropped: UnsignedIntSchema,
  /** The scriptlet run's cost, or null when none ran. */
  scriptlet: ScriptletCostSchema.nullable(),
});
export type InstancePlacementRecord = z.infer<typeof InstancePlacementRecordSchema>;
