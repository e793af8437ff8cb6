import { z } from "zod";
import { MemberNameSchema } from "./names.js";
import { UnsignedIntSchema } from "./primitives.js";
import { RejectionGroupSchema } from "./rejections.js";

/** Who picked the member: an explicit `?target=member`, the scriptlet's `set_target`, or the default policy. */
export const DecidedBySchema = z.enum(["target", "scriptlet", "default"]);

/**
 * The outcome of a placement decision. `placed`: the chosen member. `rejected`: the error
 * the real request would have answered (message and HTTP status), e.g. a scriptlet rejection
 * or a 507 when no member has capacity.
 */
export const PlacementDecisionSchema = z.discriminatedUnion("outcome", [
  z.strictObject({
    outcome: z.literal("placed"),
    location: MemberNameSchema,
    decided_by: DecidedBySchema,
  }),
  z.strictObject({
    outcome: z.literal("rejected"),
    error: z.string().min(1),
    error_code: z.number().int().min(400).max(599),
  }),
]);
export type PlacementDecision = z.infer<typeof PlacementDecisionSchema>;

/** One line the scriptlet logged with `log_info`/`log_warn`/`log_error`. */
export const ScriptletLogLineSchema = z.strictObject({
  level: z.enum(["info", "warn", "error"]),
  message: z.string(),
});
export type ScriptletLogLine = z.infer<typeof ScriptletLogLineSchema>;

/** What the scriptlet run cost; zeros when no scriptlet ran. */
export const ScriptletCostSchema = z.strictObject({
  steps: UnsignedIntSchema,
  time_ms: z.number().min(0),
});
export type ScriptletCost = z.infer<typeof ScriptletCostSchema>;

/**
 * `POST /1.0/instances?dry_run=true`: the decision without claiming anything, the candidate
 * members in the order the scriptlet saw them, why the others were turned down, its log
 * lines and its cost.
 */
export const DryRunResultSchema = z.strictObject({
  decision: PlacementDecisionSchema,
  candidates: z.array(MemberNameSchema),
  /**
   * Every other member, grouped by the first reason it was turned down for: what the
   * decision record of the real placement would keep, or why nothing fits.
   */
  rejections: z.array(RejectionGroupSchema),
  scriptlet_ran: z.boolean(),
  log: z.array(ScriptletLogLineSchema),
  cost: ScriptletCostSchema,
});
export type DryRunResult = z.infer<typeof DryRunResultSchema>;
