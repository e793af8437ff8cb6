/**
 * `postgres://` and `postgresql://` URLs name a PostgreSQL database; every
 * other form (a file path, `:memory:`, `libsql://…`) belongs to another
 * store. Credentials stay in the URL; they are never logged (`redactedUrl`).
 */
export class PostgresUrlError extends Error {
  /** Set so logs tell it from other errors. */
  override readonly name = "PostgresUrlError";
}

/**
 * Whether `url` is meant for this store (`postgres://` or `postgresql://`), as berthd decides
 * between its two stores.
 */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(url.trim());
}

/** Checks the URL names a host and a database; answers it unchanged. */
export function parsePostgresUrl(url: string): string {
  const trimmed = url.trim();
  if (!isPostgresUrl(trimmed)) {
    throw new PostgresUrlError(
      `Not a PostgreSQL URL: "${redactedUrl(trimmed)}" (expected postgres://user@host:port/database)`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new PostgresUrlError(`Invalid PostgreSQL URL: "${redactedUrl(trimmed)}"`);
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
  if (database === "" && !parsed.searchParams.has("host")) {
    throw new PostgresUrlError(
      `PostgreSQL URL "${redactedUrl(trimmed)}" names no database (expected postgres://user@host:port/database)`,
    );
  }
  return trimmed;
}

/** The URL without its password, for logs and messages. */
export function redactedUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*):[^@/]*@/, "$1:***@");
}
