import type { SqlDialect } from "../schema/table-spec.js";

/** What a statement may bind: both drivers take these as they are (SQLite stores booleans as 0/1). */
export type SqlParam = string | number | boolean | null;

export type SqlRow = Record<string, unknown>;

/**
 * The port every shared statement runs through: one transaction (or one
 * connection) of one adapter. Statements are written once with `?`
 * placeholders in the SQL both dialects speak; the PostgreSQL runner
 * numbers them (`$1`, ...). `dialect` is for the few places that must say
 * a thing two ways (JSON functions).
 */
export interface SqlRunner {
  readonly dialect: SqlDialect;
  all<R = SqlRow>(text: string, params?: readonly SqlParam[]): Promise<R[]>;
  /** The number of rows the statement changed. */
  run(text: string, params?: readonly SqlParam[]): Promise<number>;
}

/** The first row, or undefined. */
export async function first<R = SqlRow>(
  db: SqlRunner,
  text: string,
  params?: readonly SqlParam[],
): Promise<R | undefined> {
  const [row] = await db.all<R>(text, params);
  return row;
}

/** What each adapter's own transaction handle offers (libSQL's RawSql, pg's Tx): plain text and an array. */
export interface RawStatements {
  rows(text: string, params?: never[]): Promise<object[]>;
  run(text: string, params?: never[]): Promise<number>;
}

/** A runner over SQLite/libSQL plain statements (`?` is SQLite's own placeholder). */
export function sqliteRunner(raw: RawStatements): SqlRunner {
  return {
    dialect: "sqlite",
    all: <R>(text: string, params: readonly SqlParam[] = []) =>
      raw.rows(text, params as never[]) as Promise<R[]>,
    run: (text, params = []) => raw.run(text, params as never[]),
  };
}

/** A runner over PostgreSQL plain statements: `?` becomes `$n` (once per distinct text). */
export function pgRunner(raw: RawStatements): SqlRunner {
  return {
    dialect: "pg",
    all: <R>(text: string, params: readonly SqlParam[] = []) =>
      raw.rows(numbered(text), params as never[]) as Promise<R[]>,
    run: (text, params = []) => raw.run(numbered(text), params as never[]),
  };
}

const numberedTexts = new Map<string, string>();

/**
 * `?` placeholders as PostgreSQL's `$1`, `$2`, ... Question marks inside
 * quoted strings or identifiers are left alone; the shared statements never
 * use PostgreSQL's jsonb `?` operators.
 */
export function numbered(text: string): string {
  let done = numberedTexts.get(text);
  if (done !== undefined) return done;
  let count = 0;
  let quote: string | undefined;
  done = "";
  for (const char of text) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      done += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      done += char;
    } else done += char === "?" ? `$${++count}` : char;
  }
  numberedTexts.set(text, done);
  return done;
}
