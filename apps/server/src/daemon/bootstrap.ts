import type { RunningServer } from "../http/listen.js";
import type { DatabaseLocation } from "./database-location.js";
import { shellWord } from "./self-command.js";

/**
 * Printed on start while no token exists. Nothing secret is printed: the
 * operator creates the first admin token with direct access to the database
 * file (which is what proves they own the server), and the Unix socket works
 * without any token meanwhile. The command is `berthd` as it was started in
 * this terminal, on this server's database by absolute path, so it works
 * pasted here.
 */
export function firstRunMessage(berthd: string, db: DatabaseLocation, running: RunningServer): string {
  const lines = [
    "",
    "No API tokens exist yet. TCP clients need one; create the first admin token with:",
    "",
    `    ${berthd} token create admin --admin --db ${shellWord(db.shown)}`,
    "",
    "(the token is printed once; only its hash is stored).",
  ];
  if (running.socketPath !== undefined) {
    lines.push(`Local clients on the Unix socket ${running.socketPath} need no token.`);
  }
  return `${lines.join("\n")}\n\n`;
}

/** Where the log lines went, when not to this terminal (`--log-file`). */
export function logFileMessage(file: string): string {
  return `Log (JSON lines, one per request): ${file}\n`;
}

/**
 * Printed on every start: where the web console is. The console signs in
 * with an API token, so it is only reachable on the TCP listener from a
 * browser; without one (or without a built console) the line says why.
 */
export function consoleMessage(running: RunningServer, built: boolean): string {
  if (!built)
    return "Web console: not built (run `npx pnpm@10.34.8 build` in the repository, which builds apps/web, then restart berthd)\n";
  if (running.url === undefined) return "Web console: needs the TCP listener (--listen HOST:PORT)\n";
  return `Web console: ${running.url}/ui/ (sign in with an API token)\n`;
}
