import { parseArgs } from "node:util";
import { issueToken, TokenIssueError } from "../auth/issue-token.js";
import { missingProject } from "../trust/project-bindings.js";
import { type DatabaseLocation, databaseExists, databaseLocation } from "./database-location.js";
import type { TokenAdmin } from "./open-backend.js";
import { DEFAULT_DB, UsageError } from "./options.js";

/**
 * `berthd token create|list|revoke`: token administration straight on the
 * database, for the first admin (who has no token yet) and for scripts.
 * Returns the text to print; the secret appears exactly once, here.
 *
 * A database file that does not exist is refused unless `--init`: opening it
 * would create a new empty database, and its token would be one the running
 * server (on another file) rejects. What it wrote names the database.
 */
export async function runTokenCommand(
  args: string[],
  openTokens: (db: string) => Promise<TokenAdmin>,
): Promise<string> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: {
      db: { type: "string" },
      admin: { type: "boolean" },
      project: { type: "string", multiple: true },
      json: { type: "boolean" },
      init: { type: "boolean" },
    },
  });
  const [action, name, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`Unexpected argument "${rest[0]}"`);
  const location = databaseLocation(values.db ?? process.env.BERTH_DB ?? DEFAULT_DB);
  if (location.file === undefined && location.shown === ":memory:")
    throw new MissingDatabaseError(
      "--db :memory: lives only as long as this command: name the database berthd runs on",
    );
  const existed = databaseExists(location);
  if (values.init !== true && !existed)
    throw new MissingDatabaseError(
      `No database at ${location.shown}. Name the one berthd runs on (--db PATH or BERTH_DB; berthd's default is ${DEFAULT_DB} in the folder it started in), or add --init to create a new database there.`,
    );
  const admin = await openTokens(location.file ?? values.db ?? process.env.BERTH_DB ?? DEFAULT_DB);
  try {
    const done = await runAction(admin, location, action, name, values);
    return existed || values.json === true ? done : `Created the new database ${location.shown}.\n${done}`;
  } finally {
    await admin.close();
  }
}

/** Not a usage mistake: the command line was fine, the database is not there. */
export class MissingDatabaseError extends Error {
  override readonly name = "MissingDatabaseError";
}

async function runAction(
  { tokens, projectExists }: TokenAdmin,
  location: DatabaseLocation,
  action: string | undefined,
  name: string | undefined,
  values: { admin?: boolean | undefined; project?: string[] | undefined; json?: boolean | undefined },
): Promise<string> {
  switch (action) {
    case "create": {
      if (name === undefined) throw new UsageError("berthd token create NAME (--admin | --project P)");
      const projects = values.project ?? [];
      if (values.admin === true && projects.length > 0)
        throw new UsageError("Use either --admin or --project, not both");
      if (values.admin !== true && projects.length === 0) {
        throw new UsageError("Say what the token may do: --admin, or --project NAME (repeatable)");
      }
      const missing = await missingProject(projects, projectExists);
      if (missing !== undefined) {
        throw new UsageError(
          `Project "${missing}" not found: a restricted token can only name existing projects`,
        );
      }
      try {
        const { record, secret } = await issueToken(
          tokens,
          name,
          values.admin === true ? { admin: true } : { admin: false, projects },
        );
        if (values.json)
          return JSON.stringify({
            name: record.name,
            admin: record.admin,
            projects: record.projects,
            token: secret,
            database: location.shown,
          });
        const scope = record.admin ? "admin" : `projects: ${record.projects.join(", ")}`;
        return `Created token "${record.name}" (${scope}) in the database ${location.shown}. It is shown only this once:\n\n  ${secret}\n\nUse it as: curl -H "Authorization: Bearer ${secret}" http://127.0.0.1:8443/1.0\n`;
      } catch (err) {
        if (err instanceof TokenIssueError) throw new UsageError(err.message);
        throw err;
      }
    }
    case "list": {
      const all = await tokens.list();
      if (values.json) return JSON.stringify(all.map(({ hash: _hash, ...rest }) => rest));
      if (all.length === 0) return "No tokens.";
      return all
        .map((t) => `${t.name}\t${t.admin ? "admin" : `projects=${t.projects.join(",")}`}\t${t.created_at}`)
        .join("\n");
    }
    case "revoke": {
      if (name === undefined) throw new UsageError("berthd token revoke NAME");
      if (!(await tokens.delete(name))) throw new UsageError(`No token named "${name}"`);
      return `Revoked token "${name}" in the database ${location.shown}.`;
    }
    default:
      throw new UsageError(`Unknown token action "${action ?? ""}": use create, list or revoke`);
  }
}
