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
