/**
 * Signing in: the console talks to the berthd that served it (same
 * origin), with the API's own bearer token. The token is kept in the tab's
 * sessionStorage only: it survives a reload, not the tab, and no other
 * site can read it. On berthd's Unix socket (reached through a local
 * proxy) no token is needed, so the console first tries without one.
 */
import type { Server } from "@berth/api-types";
import { BerthApi, BerthApiError } from "@berth/client";

export interface Session {
  api: BerthApi;
  /** `GET /1.0` as this caller sees it: who they are and which projects they may use. */
  server: Server;
  /** Null on a listener that needs none (the Unix socket). */
  token: string | null;
}

const TOKEN_KEY = "berth.console.token";

function apiFor(token: string | null): BerthApi {
  return new BerthApi({ url: window.location.origin, ...(token !== null ? { token } : {}) });
}

/** Opens a session with `token` (or none); rejects with the server's BerthApiError (401: wrong token). */
export async function openSession(token: string | null): Promise<Session> {
  const api = apiFor(token);
  const server = await api.getServer();
  return { api, server, token };
}

/** The session of the last sign-in in this tab, or one without a token where none is needed; null: sign in. */
export async function resumeSession(): Promise<Session | null> {
  const stored = sessionStorage.getItem(TOKEN_KEY);
  for (const token of stored !== null ? [stored, null] : [null]) {
    try {
      return await openSession(token);
    } catch (error) {
      if (!(error instanceof BerthApiError && error.status === 401)) throw error;
      if (token !== null) sessionStorage.removeItem(TOKEN_KEY);
    }
  }
  return null;
}

export async function signIn(token: string): Promise<Session> {
  const session = await openSession(token.trim());
  sessionStorage.setItem(TOKEN_KEY, token.trim());
  return session;
}

export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Admins (and the Unix socket) may use every project and the cluster-wide operations. */
export function isAdmin(server: Server): boolean {
  return server.auth_user_projects === null;
}
