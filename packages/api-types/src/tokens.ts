import { z } from "zod";
import { ProjectNameSchema, TokenNameSchema } from "./names.js";
import { DescriptionSchema, TimestampSchema } from "./primitives.js";

type Scope = { admin: boolean; projects: string[] };

/** An admin token sees everything, so a project list on it would be misleading; a restricted one needs projects. */
function checkScope(token: Scope, ctx: z.RefinementCtx): void {
  if (token.admin && token.projects.length > 0) {
    ctx.addIssue({ code: "custom", path: ["projects"], message: "must be empty for an admin token" });
  }
  if (!token.admin && token.projects.length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["projects"],
      message: "must name at least one project for a non-admin token",
    });
  }
}

/**
 * A TCP access token as the server stores it (the secret itself is kept only as a hash):
 * either `admin` (everything, incl. server config) or restricted to `projects`.
 */
export const TokenSchema = z
  .strictObject({
    name: TokenNameSchema,
    description: DescriptionSchema,
    admin: z.boolean(),
    projects: z.array(ProjectNameSchema),
    created_at: TimestampSchema,
  })
  .superRefine(checkScope);
export type Token = z.infer<typeof TokenSchema>;

/** Creating a token: `admin` defaults to false, so a restricted token just lists projects. */
export const TokensPostSchema = z
  .strictObject({
    name: TokenNameSchema,
    description: DescriptionSchema.optional(),
    admin: z.boolean().default(false),
    projects: z.array(ProjectNameSchema).default([]),
  })
  .superRefine(checkScope);
export type TokensPost = z.infer<typeof TokensPostSchema>;

/** The answer to a token creation: the only time the secret is shown. */
export const TokenCreatedSchema = z.strictObject({
  name: TokenNameSchema,
  secret: z.string().min(32),
});
export type TokenCreated = z.infer<typeof TokenCreatedSchema>;
