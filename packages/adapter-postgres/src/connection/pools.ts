/**
 * Connections to one PostgreSQL database: two pools, so reads never queue
 * behind writers. A writer can wait on a row lock (another server's claim
 * on the same member) for up to the lock timeout while it holds its
 * connection; if reads came from the same pool, a burst of waiting writers
 * would leave `GET /1.0` waiting for a connection. Every connection is set
 * up at connect time (startup parameters, no extra round trip):
 *  - `lock_timeout`: the bound on any lock wait; past it the statement
 *    fails (55P03), the transaction rolls back, and the caller answers 503;
 *  - `statement_timeout`: the bound on any one statement;
 *  - `idle_in_transaction_session_timeout`: a server that stops in the
 *    middle of a transaction (SIGSTOP, a debugger) loses its session after
 *    this long, which releases its locks for the others;
 *  - `connectionTimeoutMillis` (pg-pool): the bound on connecting and on
 *    waiting for a free connection;
 *  - on the write pool only, `plan_cache_mode = force_generic_plan`
 *    (`WRITE_SESSION_OPTIONS`), after any `options` the URL gives.
 * A connection that fails is discarded by pg-pool and replaced on the next
 * checkout, so a restarted database is reconnected to without a restart. A
 * checked-out connection has an `error` listener too (a server that ends it
 * between two statements must not crash the process); a transaction that
 * loses its connection before COMMIT is sent is run again on a fresh one,
 * after it the outcome is unknown (`commitOutcomeUnknown`, driver-errors.ts).
 */
import { createHash } from "node:crypto";
import pg from "pg";
import {
  commitOutcomeUnknown,
  isConnectionFailure,
  RETRY_TRANSACTION,
  translateDriverError,
  UNIQUE_VIOLATION,
} from "./driver-errors.js";
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_READ_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
} from "./pool-defaults.js";

/**
 * The connection pools' sizes and the timeouts every connection is opened with (startup
 * parameters, no extra round trip).
 */
export interface PoolOptions {
  /** Connections for writes (claims, member, catalog and config writes). Default 10. */
  poolSize?: number;
  /** Connections for reads (the change feed, lookups, snapshots). Default 4. */
  readPoolSize?: number;
  /** The longest any statement waits for a row lock (ms). Default 5,000. */
  lockTimeoutMs?: number;
  /** The longest any one statement runs (ms). Default 30,000. */
  statementTimeoutMs?: number;
  /** A session idle inside a transaction this long is ended by the server (ms). Default 15,000. */
  idleInTransactionTimeoutMs?: number;
  /** The longest a request waits to connect or for a free connection (ms). Default 5,000. */
  connectTimeoutMs?: number;
  /** Shown in pg_stat_activity. Default "berth". */
  applicationName?: string;
  /** Called with errors of idle connections (the pool replaces them); default: ignored. */
  onIdleError?: (error: Error) => void;
}

/** Plain SQL inside one transaction (@berth/sql-core's `pgRunner` wraps it). */
export interface Tx {
  rows<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  run(text: string, params?: unknown[]): Promise<number>;
  /** A statement run once (migrations' DDL): not kept as a prepared statement. */
  once(text: string, params?: unknown[]): Promise<number>;
  /**
   * The transaction's last statement, sent together with its COMMIT (one
   * round trip): resolves once both succeeded; nothing may run after it.
   */
  finalRun(text: string, params?: unknown[]): Promise<number>;
}

export type TxWork<T> = (tx: Tx) => Promise<T>;

export interface TransactionOptions {
  /** One snapshot for every statement (snapshots for hydration, check()). */
  repeatableRead?: boolean;
  readOnly?: boolean;
  /**
   * Re-runs the whole transaction after a deadlock, a serialization failure
   * or a unique violation (another writer inserted the same key first: the
   * re-run reads it and the rules refuse with the right message). Default 4.
   */
  attempts?: number;
}

/**
 * Every statement runs as a named prepared statement (named by a hash of
 * its text): PostgreSQL parses and plans it once per connection instead of
 * on every claim. The texts are fixed strings (lists are bound as one array
 * or JSON parameter), so each connection keeps a few dozen.
 */
const statementNames = new Map<string, string>();
function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `berth_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/**
 * The transaction's statements on one pipelined connection: BEGIN is sent
 * together with the first statement and COMMIT together with `finalRun`'s,
 * so a claim costs three round trips, not five. BEGIN's answer arrives
 * before the first statement's and is checked before that statement's
 * result is used, so a transaction whose BEGIN
 * failed goes no further than its first statement (and BEGIN on an idle
 * connection fails only with the connection, which fails that statement
 * too).
 */
class PipelinedTx implements Tx {
  #begin: Promise<unknown> | undefined;
  committed = false;
  /**
   * COMMIT is on the wire: from here a lost connection leaves the outcome
   * unknown (the server may have committed before it went), not "nothing
   * written".
   */
  commitSent = false;

  constructor(
    private readonly client: pg.PoolClient,
    begin: string,
  ) {
    this.#begin = client.query(begin);
    // Awaited with the first statement; never an unhandled rejection meanwhile.
    this.#begin.catch(() => undefined);
  }

  async #send(config: pg.QueryConfig | string, values?: unknown[]): Promise<pg.QueryResult> {
    if (this.committed) throw new Error("a statement after the transaction's final statement");
    const result = this.client.query(config, values);
    const begin = this.#begin;
    if (begin !== undefined) {
      this.#begin = undefined;
      result.catch(() => undefined);
      await begin;
    }
    return result;
  }

  async rows<R>(text: string, params: unknown[] = []): Promise<R[]> {
    return (await this.#send(prepared(text, params))).rows as R[];
  }

  async run(text: string, params: unknown[] = []): Promise<number> {
    return (await this.#send(prepared(text, params))).rowCount ?? 0;
  }

  async once(text: string, params: unknown[] = []): Promise<number> {
    return (await this.#send(params.length > 0 ? { text, values: params } : text)).rowCount ?? 0;
  }

  async finalRun(text: string, params: unknown[] = []): Promise<number> {
    const statement = this.#send(prepared(text, params));
    const commit = this.client.query("COMMIT");
    this.commitSent = true;
    commit.catch(() => undefined);
    const count = (await statement).rowCount ?? 0;
    this.committed = true;
    // COMMIT in a transaction that failed answers ROLLBACK: never report that as written.
    if ((await commit).command !== "COMMIT") throw new Error("the transaction was rolled back at COMMIT");
    return count;
  }

  /** Waits for BEGIN when no statement was sent (so COMMIT/ROLLBACK follow it on the wire in order anyway). */
  async settled(): Promise<void> {
    const begin = this.#begin;
    this.#begin = undefined;
    await begin;
  }
}

/**
 * bigint columns (OID 20) as numbers: every count, amount and id Berth
 * keeps fits in 2^53 (inventories are bounded far below), and the records
 * are plain numbers. Per pool, not pg's global parser table.
 */
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== "binary"
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * Settings of the write pool's sessions beyond the timeouts: its prepared
 * statements always run their generic plan, made once per connection.
 * Left to choose (`plan_cache_mode = auto`), PostgreSQL planned a claim's
 * look-up and member read afresh on every execution whenever a claim
 * held a few creates, since their generic plans price above the custom
 * ones: planning then cost five times the execution (0.5 ms of the
 * database's CPU per single create, pg_stat_statements.track_planning).
 * The claim statements are written so that their generic plans probe
 * unique indexes whatever the planner believes about the tables
 * (`store/claim-plans.test.ts` makes them on an empty database); every
 * other write finds its rows by key too.
 */
export const WRITE_SESSION_OPTIONS = "-c plan_cache_mode=force_generic_plan";

/**
 * The connection string without its `options` and the `options` to send:
 * the URL's, then `extra` (pg takes a URL's `options` over the config's).
 */
function withSessionOptions(url: string, extra: string): { connectionString: string; options: string } {
  const parsed = new URL(url);
  const own = parsed.searchParams.get("options");
  parsed.searchParams.delete("options");
  return { connectionString: parsed.toString(), options: own === null ? extra : `${own} ${extra}` };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Pools {
  readonly write: pg.Pool;
  readonly read: pg.Pool;
  readonly lockTimeoutMs: number;
  #closed = false;
  readonly #commitListeners: ((tx: Tx) => void)[] = [];

  constructor(
    readonly url: string,
    options: PoolOptions = {},
  ) {
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    const base: pg.PoolConfig = {
      connectionString: url,
      connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      lock_timeout: this.lockTimeoutMs,
      idle_in_transaction_session_timeout:
        options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      // A URL's own ?application_name= wins over the default (tests tell servers apart by it).
      ...(options.applicationName !== undefined || !/[?&]application_name=/.test(url)
        ? { application_name: options.applicationName ?? "berth" }
        : {}),
      keepAlive: true,
      types,
    };
    // Pipelined (pg >= 8.23): a transaction sends BEGIN with its first statement and COMMIT with its last.
    // Generic plans only (see WRITE_SESSION_OPTIONS).
    this.write = new pg.Pool({
      ...base,
      ...withSessionOptions(url, WRITE_SESSION_OPTIONS),
      pipeline: true,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
    });
    this.read = new pg.Pool({ ...base, max: options.readPoolSize ?? DEFAULT_READ_POOL_SIZE });
    // An idle connection that dies (server restart) emits here; without a
    // listener Node would crash. pg-pool drops it and connects afresh.
    const onIdleError = options.onIdleError ?? (() => undefined);
    this.write.on("error", onIdleError);
    this.read.on("error", onIdleError);
    // Every connection also keeps a listener of its own for its whole life. pg-pool's idle
    // listener and a transaction's come and go as a connection changes hands, and a second error
    // (a terminated backend's 57P01, then its socket closing) arriving between them, which heavy
    // load makes likely, would otherwise be unhandled and end the process. The errors themselves
    // are seen by whoever holds the connection; a dead one is dropped when it is next released.
    const keepListening = (client: pg.PoolClient) => client.on("error", () => undefined);
    this.write.on("connect", keepListening);
    this.read.on("connect", keepListening);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** One transaction on a write connection; see TransactionOptions. */
  writeTx<T>(work: TxWork<T>, options: TransactionOptions = {}): Promise<T> {
    return this.transaction(this.write, work, options);
  }

  /**
   * Calls `listener` with each write transaction (`writeTx`'s `tx`) once it
   * committed, before `writeTx` answers: the store tells its listeners what
   * that transaction appended to the change feed (store/feed-writes.ts).
   */
  afterCommit(listener: (tx: Tx) => void): void {
    this.#commitListeners.push(listener);
  }

  /** One read-only transaction on a read connection. */
  readTx<T>(work: TxWork<T>, options: Omit<TransactionOptions, "readOnly"> = {}): Promise<T> {
    return this.transaction(this.read, work, { ...options, readOnly: true });
  }

  /** A single statement on a read connection (no BEGIN/COMMIT round trips). */
  async query<R = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await this.read.query(prepared(text, params))).rows as R[];
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  private async transaction<T>(pool: pg.Pool, work: TxWork<T>, options: TransactionOptions): Promise<T> {
    const attempts = options.attempts ?? 4;
    const begin = `BEGIN ISOLATION LEVEL ${options.repeatableRead ? "REPEATABLE READ" : "READ COMMITTED"}${
      options.readOnly ? " READ ONLY" : ""
    }`;
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw translateDriverError(error);
      }
      let broken: Error | undefined;
      // A checked-out client has no listener of pg-pool's: an error the server sends while no
      // query is active (57P01 on a restart or pg_terminate_backend) would crash the process.
      const onError = (error: Error) => {
        broken ??= error;
      };
      client.on("error", onError);
      const tx = new PipelinedTx(client, begin);
      try {
        const result = await work(tx);
        await tx.settled();
        if (!tx.committed) {
          tx.commitSent = true;
          await client.query("COMMIT");
        }
        if (pool === this.write) for (const listener of this.#commitListeners) listener(tx);
        return result;
      } catch (error) {
        const lost = isConnectionFailure(error);
        if (lost) broken ??= error instanceof Error ? error : new Error(String(error));
        else
          await client.query("ROLLBACK").catch((rollbackError: unknown) => {
            broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          });
        // The server may have committed before the connection went: only the log can tell.
        if (lost && tx.commitSent) throw commitOutcomeUnknown(error);
        const code = (error as { code?: unknown }).code;
        const retriable =
          // A connection lost before COMMIT was sent wrote nothing: a fresh connection may do it.
          lost || (typeof code === "string" && (RETRY_TRANSACTION.has(code) || code === UNIQUE_VIOLATION));
        if (retriable && attempt < attempts) {
          // A short random pause, so two writers that collided do not collide again.
          await sleep(Math.random() * (lost ? 50 : 5) * attempt);
          continue;
        }
        throw translateDriverError(error);
      } finally {
        client.removeListener("error", onError);
        // A broken connection is destroyed; a healthy one goes back to the pool.
        client.release(broken);
      }
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([this.write.end(), this.read.end()]);
  }
}
