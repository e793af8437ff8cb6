/**
 * Who is asking. Clients on the Unix socket are trusted by file permissions
 * (like LXD's local socket); TCP clients are whoever their token says.
 */
export type Principal =
  | { kind: "local" }
  | { kind: "token"; name: string; admin: true }
  | { kind: "token"; name: string; admin: false; projects: readonly string[] };

export function isAdmin(principal: Principal): boolean {
  return principal.kind === "local" || principal.admin;
}

export function canUseProject(principal: Principal, project: string): boolean {
  if (principal.kind === "local" || principal.admin) return true;
  return principal.projects.includes(project);
}

/** For logs: never the secret, only the token's name. */
export function describePrincipal(principal: Principal): string {
  return principal.kind === "local" ? "unix-socket" : `token:${principal.name}`;
}
