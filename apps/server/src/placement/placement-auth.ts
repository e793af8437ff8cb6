/**
 * Who a Placement caller is. Placement clients send a token in
 * `X-Auth-Token`: berthd looks it up as a Berth token (admin, or
 * project-scoped and so not a Placement admin). With `--placement-noauth`
 * it follows Placement's noauth2 convention instead: `admin` (or
 * `admin:<project>`) is an admin, any other token an ordinary user. The Unix
 * socket is trusted as everywhere in berthd.
 */
import type { Principal } from "../auth/principal.js";
import { hashTokenSecret } from "../auth/token-secret.js";
import type { TokenStore } from "../auth/token-store.js";
import type { ListenerKind } from "../http/server-env.js";

export interface PlacementAuthOptions {
  tokens: TokenStore;
  /** Placement's noauth2: the token names the user; `admin` is an admin. Loopback-only (see options.ts). */
  noauth: boolean;
}

/** undefined: not authenticated (401). */
export async function placementPrincipal(
  options: PlacementAuthOptions,
  listener: ListenerKind | undefined,
  token: string | undefined,
): Promise<Principal | undefined> {
  if (listener === "unix") return { kind: "local" };
  if (token === undefined || token === "") return undefined;
  if (options.noauth) {
    const [user = "", project = ""] = token.split(":", 2);
    return user === "admin"
      ? { kind: "token", name: `noauth:${token}`, admin: true }
      : { kind: "token", name: `noauth:${token}`, admin: false, projects: project === "" ? [] : [project] };
  }
  const record = await options.tokens.findByHash(hashTokenSecret(token));
  if (record === undefined) return undefined;
  return record.admin
    ? { kind: "token", name: record.name, admin: true }
    : { kind: "token", name: record.name, admin: false, projects: record.projects };
}
