import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { isPostgresUrl, redactedUrl } from "@berth/adapter-postgres/settings";

/**
 * Where a `--db` value points, said so that a person can find it again: an
 * SQLite file as an absolute path (a relative one means something else in
 * every other folder), a URL with its password left out. `file` is set for
 * plain file paths only: those are the ones that can be missing.
 */
export interface DatabaseLocation {
  /** What to print, and what to pass as `--db` elsewhere (a URL's password is elided). */
  shown: string;
  /** The absolute path of an SQLite file; undefined for URLs and `:memory:`. */
  file: string | undefined;
}

/** A scheme such as `file:`, `libsql:`, `http:` (but not a one-letter Windows drive). */
const URL_SCHEME = /^[a-z][a-z0-9+.-]+:/i;

export function databaseLocation(db: string, cwd: string = process.cwd()): DatabaseLocation {
  if (isPostgresUrl(db)) return { shown: redactedUrl(db), file: undefined };
  if (db === ":memory:" || URL_SCHEME.test(db)) return { shown: db, file: undefined };
  const file = resolve(cwd, db);
  return { shown: file, file };
}

/** Does the database exist? URLs are taken as existing: connecting will tell. */
export function databaseExists(location: DatabaseLocation): boolean {
  return location.file === undefined || existsSync(location.file);
}
