import { ProjectNameSchema } from "@berth/api-types";
import { badRequest } from "./http-error.js";

/** `?recursion=`: LXD accepts 0 (URLs), 1 (objects) and 2 (objects with more detail). */
export function parseRecursion(raw: string | undefined): 0 | 1 | 2 {
  if (raw === undefined || raw === "" || raw === "0") return 0;
  if (raw === "1") return 1;
  if (raw === "2") return 2;
  throw badRequest(`Invalid query parameter "recursion": expected 0, 1 or 2, got "${raw}"`);
}

export function parseProject(raw: string | undefined): string {
  if (raw === undefined || raw === "") return "default";
  const result = ProjectNameSchema.safeParse(raw);
  if (!result.success)
    throw badRequest(
      `Invalid query parameter "project": "${raw}" ${result.error.issues[0]?.message ?? "is not a valid project name"}`,
    );
  return raw;
}

/** `?target=member` or `?target=@group`; an empty value means "no target", as in LXD. */
export function parseTarget(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (raw === "@") throw badRequest('Invalid query parameter "target": "@" needs a group name after it');
  if (raw.length > 256) throw badRequest('Invalid query parameter "target": longer than 256 characters');
  return raw;
}

export function parseBoolean(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === "") return false;
  const lowered = raw.toLowerCase();
  if (lowered === "true" || lowered === "1") return true;
  if (lowered === "false" || lowered === "0") return false;
  throw badRequest(`Invalid query parameter "${name}": expected true or false, got "${raw}"`);
}
