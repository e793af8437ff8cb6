import { isAdmin, type Principal } from "../auth/principal.js";
import { badRequest, forbiddenHttp } from "./http-error.js";

/** Request header carrying a proposed scriptlet (base64 of its UTF-8 source) for a dry run. */
export const SCRIPTLET_HEADER = "x-berth-scriptlet";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The scriptlet source a dry run should use instead of the configured one
 * (`berth scriptlet test FILE`), or undefined when the header is absent.
 * Only admins may run arbitrary scriptlets, only on dry runs; the source
 * itself is validated by the engine like a config set (400 with its position).
 */
export function proposedScriptlet(
  header: string | undefined,
  dryRun: boolean,
  principal: Principal,
): string | undefined {
  if (header === undefined) return undefined;
  if (!dryRun) throw badRequest("X-Berth-Scriptlet is only honoured on dry runs (?dry_run=true)");
  if (!isAdmin(principal))
    throw forbiddenHttp("Forbidden: dry-running a proposed scriptlet needs an admin token");
  const text = header.trim();
  if (text.length % 4 !== 0 || !BASE64.test(text)) {
    throw badRequest("Invalid X-Berth-Scriptlet header: expected the scriptlet source encoded in base64");
  }
  const source = Buffer.from(text, "base64").toString("utf8");
  if (source.includes("\uFFFD")) {
    throw badRequest("Invalid X-Berth-Scriptlet header: the decoded scriptlet is not valid UTF-8");
  }
  return source;
}
