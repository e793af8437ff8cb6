/**
 * Who is asking. Clients on the Unix socket are trusted by file permissions
 * (like LXD's local socket); TCP clients are whoever their bearer token or
 * trusted TLS client certificate says. An `untrusted` caller (HTTPS, no
 * token, a certificate nobody trusts yet) may only read `GET /1.0` and
 * redeem a trust token, as with LXD.
 */
export type Principal =
  | { kind: "local" }
  | { kind: "token" | "certificate"; name: string; admin: true }
  | { kind: "token" | "certificate"; name: string; admin: false; projects: readonly string[] }
  | { kind: "untrusted"; peerCertificate: PeerCertificate | undefined };

/** The TLS client certificate of a request: DER bytes and LXD's fingerprint (hex SHA-256 of the DER). */
export interface PeerCertificate {
  der: Buffer;
  fingerprint: string;
}

export function isAdmin(principal: Principal): boolean {
  if (principal.kind === "local") return true;
  return principal.kind !== "untrusted" && principal.admin;
}

export function canUseProject(principal: Principal, project: string): boolean {
  if (principal.kind === "untrusted") return false;
  if (principal.kind === "local" || principal.admin) return true;
  return principal.projects.includes(project);
}

/**
 * The refusal for a project the caller may not use: LXD's own text for a
 * restricted certificate (what `lxc` prints), Berth's for a token.
 */
export function projectRefusal(principal: Principal, project: string): string {
  if (principal.kind === "certificate") return "not authorized";
  return `Forbidden: this token is not allowed to use project "${project}"`;
}

/** For logs: never the secret, only the token's or certificate's name. */
export function describePrincipal(principal: Principal): string {
  if (principal.kind === "local") return "unix-socket";
  if (principal.kind === "untrusted") return "untrusted";
  return `${principal.kind}:${principal.name}`;
}
