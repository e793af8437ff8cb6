import type { TLSSocket } from "node:tls";
import type { MiddlewareHandler } from "hono";
import type { PeerCertificate, Principal } from "../auth/principal.js";
import { hashTokenSecret } from "../auth/token-secret.js";
import type { TokenStore } from "../auth/token-store.js";
import { headerOf } from "../http/header.js";
import { unauthorized } from "../http/http-error.js";
import { listenerOf } from "../http/listener.js";
import type { ServerBindings, ServerEnv } from "../http/server-env.js";
import { fingerprintOf } from "../trust/server-certificate.js";
import { parseCertificate } from "../trust/trust.js";
import type { TrustStore } from "../trust/trust-store.js";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The TLS client certificate of the request's connection, if it sent one. */
function peerCertificateOf(env: Partial<ServerBindings> | undefined): PeerCertificate | undefined {
  const socket = env?.incoming?.socket as TLSSocket | undefined;
  if (socket?.encrypted !== true) return undefined;
  const raw = socket.getPeerCertificate(false)?.raw;
  if (raw === undefined || raw.length === 0) return undefined;
  return { der: raw, fingerprint: fingerprintOf(parseCertificate(raw)) };
}

function isTls(env: Partial<ServerBindings> | undefined): boolean {
  return (env?.incoming?.socket as TLSSocket | undefined)?.encrypted === true;
}

/** What an untrusted HTTPS client may do, as with LXD: read the server info, redeem a trust token. */
function untrustedMayAsk(method: string, path: string): boolean {
  return (method === "GET" && path === "/1.0") || (method === "POST" && path === "/1.0/certificates");
}

/**
 * Decides who the caller is. The Unix socket is protected by its file mode,
 * so its clients are trusted as local admins. On TCP a bearer token wins
 * (Berth's clients); otherwise a TLS client certificate that berthd trusts
 * (LXD's clients); an HTTPS caller with neither is untrusted and may only
 * read `GET /1.0` and redeem a trust token.
 */
export function authenticate(tokens: TokenStore, trust: TrustStore): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (listenerOf(c.env) === "unix") {
      c.set("principal", { kind: "local" });
      return next();
    }
    const header = headerOf(c, "authorization");
    if (header === undefined || header.trim() === "") {
      const peer = peerCertificateOf(c.env);
      const trusted = peer === undefined ? undefined : await trust.certificate(peer.fingerprint);
      if (trusted !== undefined) {
        const principal: Principal = trusted.restricted
          ? { kind: "certificate", name: trusted.name, admin: false, projects: trusted.projects }
          : { kind: "certificate", name: trusted.name, admin: true };
        c.set("principal", principal);
        return next();
      }
      if (isTls(c.env) && untrustedMayAsk(c.req.method, c.req.path)) {
        c.set("principal", { kind: "untrusted", peerCertificate: peer });
        return next();
      }
      throw unauthorized(
        peer === undefined
          ? "Missing bearer token (send 'Authorization: Bearer <token>')"
          : "not authorized: this client certificate is not trusted (add it with 'lxc config trust add')",
      );
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
