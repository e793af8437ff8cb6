import { randomUUID } from "node:crypto";
import { INSTANCE_NAME_RULE, TokenNameSchema } from "@berth/api-types";
import { generateTokenSecret, hashTokenSecret } from "./token-secret.js";
import type { TokenRecord, TokenStore } from "./token-store.js";

export type TokenScope = { admin: true } | { admin: false; projects: readonly string[] };

export class TokenIssueError extends Error {
  override readonly name = "TokenIssueError";
  /** True when the name is already taken (HTTP 409), false for a bad request (400). */
  readonly conflict: boolean;

  constructor(message: string, conflict = false) {
    super(message);
    this.conflict = conflict;
  }
}

/**
 * Creates a token and returns its secret, which is shown exactly once:
 * only its hash is stored, so a lost token is revoked and re-issued, never recovered.
 */
export async function issueToken(
  store: TokenStore,
  name: string,
  scope: TokenScope,
  description = "",
): Promise<{ record: TokenRecord; secret: string }> {
  const checked = TokenNameSchema.safeParse(name);
  if (!checked.success) throw new TokenIssueError(`Invalid token name "${name}": ${INSTANCE_NAME_RULE}`);
  if (!scope.admin && scope.projects.length === 0) {
    throw new TokenIssueError("A restricted token needs at least one project");
  }
  const existing = await store.list();
  if (existing.some((t) => t.name === name))
    throw new TokenIssueError(`Token "${name}" already exists`, true);
  const secret = generateTokenSecret();
  const record: TokenRecord = {
    id: randomUUID(),
    name,
    description,
    hash: hashTokenSecret(secret),
    admin: scope.admin,
    projects: scope.admin ? [] : [...new Set(scope.projects)],
    created_at: new Date().toISOString(),
  };
  await store.create(record);
  return { record, secret };
}
