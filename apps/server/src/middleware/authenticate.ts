import type { MiddlewareHandler } from "hono";
import type { Principal } from "../auth/principal.js";
import { hashTokenSecret } from "../auth/token-secret.js";
import type { TokenStore } from "../auth/token-store.js";
import { headerOf } from "../http/header.js";
import { unauthorized } from "../http/http-error.js";
import { listenerOf } from "../http/listener.js";
import type { ServerEnv } from "../server-env.js";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Decides who the caller is. The Unix socket is protected by its file mode,
 * so its clients are trusted as local admins; everything on TCP must carry a
 * valid bearer token.
 */
export function authenticate(tokens: TokenStore): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (listenerOf(c.env) === "unix") {
      c.set("principal", { kind: "local" });
      return next();
    }
    const header = headerOf(c, "authorization");
    if (header === undefined || header.trim() === "") {
      throw unauthorized("Missing bearer token (send 'Authorization: Bearer <token>')");
    }
    const match = BEARER.exec(header);
    if (!match?.[1]) throw unauthorized("Malformed Authorization header: expected 'Bearer <token>'");
    const record = await tokens.findByHash(hashTokenSecret(match[1]));
    if (!record) throw unauthorized("Invalid bearer token");
    const principal: Principal = record.admin
      ? { kind: "token", name: record.name, admin: true }
      : { kind: "token", name: record.name, admin: false, projects: record.projects };
    c.set("principal", principal);
    return next();
  };
}
