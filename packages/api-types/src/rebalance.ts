import { z } from "zod";
import { InstanceNameSchema, MemberNameSchema, ProjectNameSchema } from "./names.js";

/** One proposed move: `gain` is how much the cluster's imbalance score drops (> 0). */
export const RebalanceMoveSchema = z
  .strictObject({
    instance: InstanceNameSchema,
    project: ProjectNameSchema,
    from: MemberNameSchema,
    to: MemberNameSchema,
    gain: z.number().positive(),
  })
  .refine((move) => move.from !== move.to, { path: ["to"], message: 'must differ from "from"' });
export type RebalanceMove = z.infer<typeof RebalanceMoveSchema>;

/**
 * `GET /1.0/cluster/rebalance` (the dry plan) and `POST` (the moves applied): moves in
 * execution order, with the imbalance score before and after the whole plan.
 */
export const RebalancePlanSchema = z.strictObject({
  moves: z.array(RebalanceMoveSchema),
  score_before: z.number().min(0),
  score_after: z.number().min(0),
  applied: z.boolean(),
});
export type RebalancePlan = z.infer<typeof RebalancePlanSchema>;

/** One instance a run of automatic rebalancing moves (or, in a dry run, would move). */
export const AutomaticRebalanceMoveSchema = z.strictObject({
  instance: InstanceNameSchema,
  project: ProjectNameSchema,
  from: MemberNameSchema,
  to: MemberNameSchema,
  /** Load scores (0-100+, Incus's): the source's, the target's at the start of the run and after this move. */
  from_score: z.number().int().min(0),
  to_score_before: z.number().int().min(0),
  to_score_after: z.number().int().min(0),
});

/** Why an instance on a relieved member stays there. */
export const RebalanceStayReasonSchema = z.enum([
  "not-live-migratable",
  "cooling-down",
  "placement-group",
  "mirrored",
  "no-target",
  "scriptlet",
  "balanced",
  "batch-full",
  "claim-failed",
]);

/**
 * `GET /1.0/cluster/rebalance/automatic`: what the next run of automatic rebalancing
 * (Incus's `cluster.rebalance.*`) would do now, with the same rules as the run: members
 * scored and grouped by architecture, the threshold, the batch, the cooldown, only
 * instances that can live-migrate, the scriptlet with reason `rebalance`. Nothing moves.
 */
export const AutomaticRebalancePreviewSchema = z.strictObject({
  /** `cluster.rebalance.interval` > 0. */
  enabled: z.boolean(),
  interval: z.number().int(),
  threshold: z.number().int(),
  batch: z.number().int(),
  cooldown: z.string(),
  /** When this server runs the next one (null: disabled, or another server holds the healer lease). */
  next_run_at: z.string().nullable(),
  /** This server's last run (null: none since it started). */
  last_run_at: z.string().nullable(),
  groups: z.array(
    z.strictObject({
      architecture: z.string(),
      /** Busiest first. */
      members: z.array(z.strictObject({ name: MemberNameSchema, score: z.number().int().min(0) })),
      difference_percent: z.number().int(),
      /** The busiest member is loaded and the difference reaches the threshold: instances move off it. */
      triggered: z.boolean(),
    }),
  ),
  moves: z.array(AutomaticRebalanceMoveSchema),
  stayed: z.array(
    z.strictObject({
      instance: InstanceNameSchema,
      project: ProjectNameSchema,
      member: MemberNameSchema,
      reason: RebalanceStayReasonSchema,
      message: z.string(),
    }),
  ),
});
export type AutomaticRebalancePreview = z.infer<typeof AutomaticRebalancePreviewSchema>;
