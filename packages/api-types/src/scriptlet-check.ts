import { z } from "zod";

/**
 * `POST /1.0/scriptlet/check`: a proposed `instances.placement.scriptlet`, checked as a
 * config set would check it (compile, top-level run, entry point signature) without
 * setting it. An editor sends it as the operator types.
 */
export const ScriptletCheckRequestSchema = z.strictObject({
  source: z.string(),
});
export type ScriptletCheckRequest = z.infer<typeof ScriptletCheckRequestSchema>;

/**
 * The answer: `valid`, or the reason a config set would give (go.starlark.net's
 * `instance_placement:LINE:COL: message` for compile and top-level errors) and where
 * (1-based line and column; null when the error has no position, e.g. a wrong signature).
 */
export const ScriptletCheckResultSchema = z.strictObject({
  valid: z.boolean(),
  error: z
    .strictObject({
      message: z.string().min(1),
      line: z.number().int().min(1).nullable(),
      column: z.number().int().min(1).nullable(),
    })
    .nullable(),
});
export type ScriptletCheckResult = z.infer<typeof ScriptletCheckResultSchema>;
