import type { RunningServer } from "../listen.js";

/**
 * Printed on start while no token exists. Nothing secret is printed: the
 * operator creates the first admin token with direct access to the database
 * file (which is what proves they own the server), and the Unix socket works
 * without any token meanwhile.
 */
export function firstRunMessage(db: string, running: RunningServer): string {
  const lines = [
    "",
    "No API tokens exist yet. TCP clients need one; create the first admin token with:",
    "",
    `    node apps/server/dist/main.js token create admin --admin --db ${db}`,
    "",
    "(the token is printed once; only its hash is stored).",
  ];
  if (running.socketPath !== undefined) {
    lines.push(`Local clients on the Unix socket ${running.socketPath} need no token.`);
  }
  return `${lines.join("\n")}\n\n`;
}
