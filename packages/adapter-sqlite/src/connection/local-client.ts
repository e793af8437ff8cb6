import { type InValue, LibsqlError, type ResultSet, type Row, type TransactionMode } from "@libsql/client";
import Database from "libsql";

/**
 * What the adapter uses of a libSQL client. `@libsql/client`'s `Client`
 * satisfies it (remote databases); `LocalClient` implements it for files
 * and `:memory:`.
 */
/** A result as `@libsql/client` gives it (without its `toJSON`, which nothing here serializes). */
export type SqlResult = Omit<ResultSet, "toJSON">;

/** A statement with its positional arguments (the adapter binds nothing by name). */
export type SqlStatement = string | { sql: string; args?: InValue[] };

export interface SqlClient {
  execute(statement: SqlStatement, args?: InValue[]): Promise<SqlResult>;
  transaction(mode: TransactionMode): Promise<SqlTransaction>;
  reconnect(): Promise<void> | void;
  close(): void;
}

export interface SqlTransaction {
  execute(statement: SqlStatement): Promise<SqlResult>;
  commit(): Promise<void>;
  /** Rolls back unless committed; idempotent. */
  close(): void;
}

type NativeDatabase = InstanceType<typeof Database>;
/** Compiled once, run many times with different (positional) arguments. */
type NativeStatement = {
  reader: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  raw(toggle?: boolean): unknown;
  columns(): { name: string; type: string | null }[];
  safeIntegers(toggle?: boolean): unknown;
};

/** A compiled statement and what executing it needs, kept per SQL text. */
interface CachedStatement {
  statement: NativeStatement;
  /** Null for statements that return no rows. */
  shape: RowShape | null;
}

/** How many distinct statements stay compiled; batch inserts vary in length, so the set is bounded. */
const STATEMENT_CACHE_SIZE = 256;

const BEGIN: Record<TransactionMode, string> = {
  write: "BEGIN IMMEDIATE",
  read: "BEGIN TRANSACTION READONLY",
  deferred: "BEGIN DEFERRED",
};

/**
 * A libSQL client for a local database (file or `:memory:`) on the native
 * `libsql` driver, with one connection and a cache of compiled statements.
 * `@libsql/client` compiles every statement afresh (and probes each write
 * statement with a throwing call); on a placement's claim, a dozen small
 * statements, that was the larger part of the database time. Results have
 * `@libsql/client`'s shape (rows indexable by position and by column name,
 * integers as numbers that must be safe), and errors are `LibsqlError`s
 * with the same codes, so the adapter's SQL and migrations see no
 * difference.
 */
export class LocalClient implements SqlClient {
  #db: NativeDatabase;
  readonly #statements = new Map<string, CachedStatement>();
  #inTransaction = false;
  #closed = false;

  constructor(
    private readonly path: string,
    private readonly timeoutMs: number,
  ) {
    this.#db = LocalClient.#open(path, timeoutMs);
  }

  static #open(path: string, timeoutMs: number): NativeDatabase {
    try {
      return new Database(path, { timeout: timeoutMs });
    } catch (error) {
      throw mapError(error);
    }
  }

  async execute(statement: SqlStatement, args?: InValue[]): Promise<SqlResult> {
    this.#checkOpen();
    if (this.#inTransaction) {
      throw new LibsqlError(
        "This client has a single connection, which an open transaction is holding.",
        "TRANSACTION_ACTIVE",
      );
    }
    return this.run(statement, args);
  }

  async transaction(mode: TransactionMode): Promise<SqlTransaction> {
    this.#checkOpen();
    if (this.#inTransaction) {
      throw new LibsqlError("A transaction is already open on this connection", "TRANSACTION_ACTIVE");
    }
    this.run(BEGIN[mode]);
    this.#inTransaction = true;
    return new LocalTransaction(this, () => {
      this.#inTransaction = false;
    });
  }

  async reconnect(): Promise<void> {
    this.#closeDatabase();
    this.#db = LocalClient.#open(this.path, this.timeoutMs);
    this.#closed = false;
    this.#inTransaction = false;
  }

  close(): void {
    this.#closed = true;
    this.#closeDatabase();
  }

  get inNativeTransaction(): boolean {
    return this.#db.open && this.#db.inTransaction;
  }

  /** Runs one statement now (synchronously: the native driver is). */
  run(statement: SqlStatement, args?: InValue[]): SqlResult {
    this.#checkOpen();
    const sql = typeof statement === "string" ? statement : statement.sql;
    const given = typeof statement === "string" ? args : statement.args;
    const cached = this.#prepare(sql);
    try {
      const bound = given === undefined ? [] : given.map(valueToSql);
      if (cached.shape !== null) {
        const raw = cached.statement.all(...bound) as unknown[][];
        const rows = new Array<Row>(raw.length);
        for (let i = 0; i < raw.length; i++) rows[i] = cached.shape.row(raw[i]!);
        const { columns, types } = cached.shape;
        return { columns, columnTypes: types, rows, rowsAffected: 0, lastInsertRowid: undefined };
      }
      const info = cached.statement.run(...bound);
      const lastInsertRowid = BigInt(info.lastInsertRowid);
      return { columns: [], columnTypes: [], rows: [], rowsAffected: info.changes, lastInsertRowid };
    } catch (error) {
      // A statement that failed (e.g. SQLITE_BUSY) may stay mid-step; never reuse it.
      this.#statements.delete(sql);
      throw mapError(error);
    }
  }

  #prepare(sql: string): CachedStatement {
    const hit = this.#statements.get(sql);
    if (hit !== undefined) {
      // Refresh its position: the map's insertion order is the eviction order.
      this.#statements.delete(sql);
      this.#statements.set(sql, hit);
      return hit;
    }
    let statement: NativeStatement;
    try {
      statement = this.#db.prepare(sql) as unknown as NativeStatement;
    } catch (error) {
      throw mapError(error);
    }
    statement.safeIntegers(true);
    let shape: RowShape | null = null;
    if (statement.reader) {
      statement.raw(true);
      const columns = statement.columns();
      shape = new RowShape(
        columns.map((c) => c.name),
        columns.map((c) => c.type ?? ""),
      );
    }
    const cached = { statement, shape };
    // Transaction control statements are cheap to compile and must not be shared mid-failure.
    this.#statements.set(sql, cached);
    if (this.#statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    return cached;
  }

  #closeDatabase(): void {
    this.#statements.clear();
    try {
      if (this.#db.open) this.#db.close();
    } catch {
      // Closing a connection that is already unusable: nothing left to release.
    }
  }

  #checkOpen(): void {
    if (this.#closed || !this.#db.open) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
  }
}

class LocalTransaction implements SqlTransaction {
  #done = false;

  constructor(
    private readonly client: LocalClient,
    private readonly release: () => void,
  ) {}

  async execute(statement: SqlStatement): Promise<SqlResult> {
    if (this.#done) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
    return this.client.run(statement);
  }

  async commit(): Promise<void> {
    if (this.#done) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
    try {
      this.client.run("COMMIT");
    } finally {
      this.#finish();
    }
  }

  close(): void {
    if (this.#done) return;
    try {
      if (this.client.inNativeTransaction) this.client.run("ROLLBACK");
    } finally {
      this.#finish();
    }
  }

  #finish(): void {
    this.#done = true;
    this.release();
  }
}

/**
 * Builds result rows shaped like `@libsql/client`'s: column names as
 * enumerable own properties (the first of duplicated names wins), positions
 * and `length` as non-enumerable accessors. The accessors live on one
 * prototype per statement, so a row costs one small object, not a
 * property definition per value.
 */
class RowShape {
  readonly #prototype: object;
  readonly #names: (string | null)[];

  constructor(
    readonly columns: string[],
    readonly types: string[],
  ) {
    const prototype: Record<PropertyKey, unknown> = {};
    Object.defineProperty(prototype, "length", {
      get(this: { [VALUES]: unknown[] }) {
        return this[VALUES].length;
      },
    });
    columns.forEach((_, index) => {
      Object.defineProperty(prototype, index, {
        get(this: { [VALUES]: unknown[] }) {
          return this[VALUES][index];
        },
      });
    });
    this.#prototype = prototype;
    const seen = new Set<string>();
    this.#names = columns.map((name) => {
      if (seen.has(name)) return null;
      seen.add(name);
      return name;
    });
  }

  row(raw: unknown[]): Row {
    const values = new Array<unknown>(raw.length);
    const row = Object.create(this.#prototype) as Record<PropertyKey, unknown>;
    Object.defineProperty(row, VALUES, { value: values });
    for (let i = 0; i < raw.length; i++) {
      const value = valueFromSql(raw[i]);
      values[i] = value;
      const name = this.#names[i];
      if (name !== null && name !== undefined) row[name] = value;
    }
    return row as unknown as Row;
  }
}

const VALUES: unique symbol = Symbol("values");

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function valueFromSql(value: unknown): unknown {
  if (typeof value === "bigint") {
    if (value < MIN_SAFE || value > MAX_SAFE) {
      throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    }
    return Number(value);
  }
  if (value instanceof Buffer)
    return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
  return value;
}

function valueToSql(value: InValue): unknown {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) {
      throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
    }
    return value;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

/**
 * The native driver's errors as `LibsqlError`s with the base code, as `@libsql/client` reports
 * them: the driver names the extended code (`SQLITE_CONSTRAINT_PRIMARYKEY`, `SQLITE_IOERR_WRITE`),
 * and every base code is one word after `SQLITE_`.
 */
function mapError(error: unknown): unknown {
  if (error instanceof Database.SqliteError) {
    const base = /^SQLITE_[A-Z]+/.exec(error.code)?.[0] ?? "SQLITE_UNKNOWN";
    return new LibsqlError(error.message, base, error.code, (error as { rawCode?: number }).rawCode, error);
  }
  return error;
}
