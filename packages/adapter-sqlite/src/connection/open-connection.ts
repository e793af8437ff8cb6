import { resolve } from "node:path";
import { createClient, type InValue, type Row, type TransactionMode } from "@libsql/client";
import { isBusy, translateDriverError } from "./driver-errors.js";
import { LocalClient, type SqlClient, type SqlTransaction } from "./local-client.js";
import {
  DEFAULT_BUSY_TIMEOUT_MS,
  filePragmaStatements,
  MEMORY_PRAGMA_STATEMENTS,
  SYNC_BUSY_WAIT_MS,
} from "./pragmas.js";
import { createPrivateFile } from "./private-file.js";
import { SerialLock } from "./serial-lock.js";
import type { StoreLocation } from "./store-url.js";
import { WalCheckpointer } from "./wal-checkpointer.js";

/** Plain SQL inside one transaction (@berth/sql-core's `sqliteRunner` wraps it). */
export interface RawSql {
  rows(sql: string, args?: InValue[]): Promise<Row[]>;
  run(sql: string, args?: InValue[]): Promise<number>;
}

/** Work done inside one transaction. */
export type Work<T> = (raw: RawSql) => Promise<T>;

export interface ConnectionOptions {
  /** How long a writer waits for another process's write lock (ms). */
  busyTimeoutMs?: number;
}

/**
 * One open database: the libSQL client and the lock that serializes this
 * process's use of it (see SerialLock for why). All work goes through
 * `read` or `write`, each one transaction.
 */
export interface Connection {
  readonly location: StoreLocation;
  readonly client: SqlClient;
  /**
   * A consistent read: BEGIN DEFERRED, so it takes no write lock and sees
   * one snapshot of the file even while other processes write (WAL).
   */
  read<T>(work: Work<T>): Promise<T>;
  /**
   * A write: BEGIN IMMEDIATE, so the file's write lock is taken up front
   * (waiting up to busy_timeout for another process) and everything read
   * inside stays true until commit. All-or-nothing: any throw rolls back.
   */
  write<T>(work: Work<T>): Promise<T>;
  /**
   * How many write transactions through this connection have ended
   * (committed or not). With `dataVersion()`, it tells when a cached read of
   * the change feed may be reused.
   */
  readonly writes: number;
  /**
   * Calls `listener` with the handle (`raw`) of each write transaction once
   * it committed, before `write` answers: the store tells its listeners
   * what that transaction appended to the change feed (store/feed-writes.ts).
   */
  afterCommit(listener: (raw: RawSql) => void): void;
  /** One reading statement outside any transaction: SQLite runs it on one snapshot. */
  query(sql: string, args: InValue[]): Promise<Row[]>;
  /**
   * Runs `work` on the bare client, queued like a transaction (migrations);
   * re-run whole while another process holds the file, up to the busy timeout.
   */
  exclusive<T>(work: (client: SqlClient) => Promise<T>): Promise<T>;
  /**
   * Changes whenever another connection committed to the database (and
   * when this one reconnected): SQLite's `PRAGMA data_version`, read outside
   * any transaction. Undefined for remote databases, which have no such signal.
   */
  dataVersion(): Promise<string | undefined>;
  /** Closes the database (and, for a file, stops its checkpoint worker). */
  close(): Promise<void>;
}

/**
 * What the connections to one file in this process share. The queue: SQLite's
 * busy wait blocks the thread, so if two stores on one file in one process
 * could interleave transactions, the second BEGIN would sleep on a lock only
 * this same thread can release — stalling until busy_timeout. Sharing the
 * queue makes them take turns. The commit count lets each connection tell
 * (without asking SQLite) whether another connection of this process wrote.
 */
interface FileShared {
  lock: SerialLock;
  commits: number;
}

const fileShared = new Map<string, FileShared>();

function sharedFor(location: StoreLocation): FileShared {
  if (location.kind !== "file") return { lock: new SerialLock(), commits: 0 };
  const key = resolve(location.path);
  let shared = fileShared.get(key);
  if (shared === undefined) fileShared.set(key, (shared = { lock: new SerialLock(), commits: 0 }));
  return shared;
}

export async function openConnection(
  location: StoreLocation,
  options: ConnectionOptions = {},
): Promise<Connection> {
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  const client = createClientFor(location, busyTimeoutMs);
  const pragmas =
    location.kind === "file"
      ? filePragmaStatements(busyTimeoutMs)
      : location.kind === "memory"
        ? MEMORY_PRAGMA_STATEMENTS
        : // A remote server owns its connections' settings; nothing to set per client.
          [];
  const applyPragmas = async () => {
    for (const statement of pragmas) await client.execute(statement);
    if (checkpointer !== undefined) await client.execute("PRAGMA wal_autocheckpoint = 0");
  };
  const shared = sharedFor(location);
  const lock = shared.lock;
  /**
   * Files checkpoint on a worker (wal-checkpointer.ts), started by the first
   * commit of this connection: a process that only reads (a hydration, a
   * read-only tool) pays neither the thread's start (~10 MiB) nor its CPU.
   * Until then, and if the worker cannot run, SQLite's automatic checkpoint
   * does the work on the commits.
   */
  let checkpointer: WalCheckpointer | undefined;
  /** The file whose worker the next commit starts; undefined once started (and for other locations). */
  let unstartedCheckpointer = location.kind === "file" ? resolve(location.path) : undefined;
  const startCheckpointer = async (file: string) => {
    unstartedCheckpointer = undefined;
    checkpointer = new WalCheckpointer(file, () => {
      checkpointer = undefined;
      lock.run(() => client.execute("PRAGMA wal_autocheckpoint = 1000")).catch(() => undefined);
    });
    await client.execute("PRAGMA wal_autocheckpoint = 0");
  };
  let ownCommits = 0;
  /**
   * `PRAGMA data_version` as last read, kept until the event loop's next
   * check phase: the requests handled in one turn share one read of it (it
   * showed up as the costliest statement of a placement, read three times).
   * Another process's commit during that turn is seen from the next turn on.
   */
  let turnVersion: string | undefined;
  /**
   * Start-up work (the pragmas, then the migrations through `exclusive`)
   * that finds another process holding the file (a copy or backup of a
   * freshly made file, another berthd migrating it) waits for it on timers,
   * up to `busyTimeoutMs` as a write does, instead of failing after
   * SQLite's few-millisecond busy wait. Each try is whole: the pragmas are
   * idempotent and a migration run is one transaction.
   */
  const waitingOutBusy = async <T>(work: () => Promise<T>): Promise<T> => {
    const deadline = Date.now() + busyTimeoutMs;
    let afresh = false;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        return await lock.run(async () => {
          if (afresh) {
            // A statement that failed with SQLITE_BUSY may stay mid-step (see recoverFrom): a new connection.
            await client.reconnect();
            await applyPragmas();
            afresh = false;
          }
          return work();
        });
      } catch (error) {
        const translated = translateDriverError(error);
        if (!isBusy(translated) || Date.now() + pause > deadline) throw translated;
        afresh = location.kind === "file";
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  try {
    await waitingOutBusy(applyPragmas);
  } catch (error) {
    client.close();
    throw error;
  }
  /**
   * A statement that failed with SQLITE_BUSY stays "in progress" on its
   * connection until garbage collection finalizes it, and until then every
   * COMMIT there fails. A fresh connection (pragmas re-applied) is the
   * reliable way out; only files have more than one writer, so only they
   * ever need it (a reconnect would empty an in-memory database).
   */
  let reconnects = 0;
  let writes = 0;
  const commitListeners: ((raw: RawSql) => void)[] = [];
  const recoverFrom = async (error: unknown): Promise<unknown> => {
    const translated = translateDriverError(error);
    if (location.kind === "file" && isBusy(translated)) {
      reconnects += 1;
      await client.reconnect();
      await applyPragmas();
    }
    return translated;
  };
  /**
   * One attempt at a transaction, holding this connection for its length:
   * BEGIN, the work, COMMIT. When another process holds the file's write
   * lock, BEGIN fails after SQLite's own short busy wait and the attempt
   * answers that refusal as `busy` (the connection is let go at once).
   */
  const attempt = <T>(mode: TransactionMode, work: Work<T>): Promise<{ value: T } | { busy: unknown }> =>
    lock.run(async () => {
      let tx: SqlTransaction;
      try {
        tx = await client.transaction(mode);
      } catch (error) {
        const translated = await recoverFrom(error);
        if (isBusy(translated)) return { busy: translated };
        throw translated;
      }
      try {
        const raw: RawSql = {
          rows: async (sql, args = []) => (await tx.execute({ sql, args })).rows,
          run: async (sql, args = []) => (await tx.execute({ sql, args })).rowsAffected,
        };
        const value = await work(raw);
        await tx.commit();
        if (mode === "write") {
          if (unstartedCheckpointer !== undefined) await startCheckpointer(unstartedCheckpointer);
          const quiet = checkpointer;
          if (quiet?.committed()) void lock.run(() => quiet.quiet());
          ownCommits += 1;
          shared.commits += 1;
          for (const listener of commitListeners) listener(raw);
        }
        return { value };
      } catch (error) {
        tx.close();
        throw await recoverFrom(error);
      } finally {
        tx.close();
      }
    });
  /**
   * A transaction, waiting for another process's write lock without
   * blocking this process: SQLite's own busy wait sleeps on the event loop's
   * thread, so it is kept to a few milliseconds (`busy_timeout`, enough for
   * ordinary turns of other writers); a longer wait happens here, between
   * attempts, on timers and WITHOUT this connection, so reads (and the
   * change feed every request reads first) keep being answered while a
   * write waits. Past `busyTimeoutMs` the work is refused: `unavailable`
   * (503 with Retry-After), nothing written.
   */
  const inTransaction = async <T>(mode: TransactionMode, work: Work<T>): Promise<T> => {
    const deadline = Date.now() + busyTimeoutMs;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      const outcome = await attempt(mode, work);
      if ("value" in outcome) return outcome.value;
      if (Date.now() + pause > deadline) throw outcome.busy;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };
  return {
    location,
    client,
    read: (work) => inTransaction("deferred", work),
    write: async (work) => {
      try {
        return await inTransaction("write", work);
      } finally {
        writes += 1;
      }
    },
    get writes() {
      return writes;
    },
    afterCommit: (listener) => {
      commitListeners.push(listener);
    },
    query: (sql, args) =>
      lock.run(async () => {
        try {
          return (await client.execute({ sql, args })).rows;
        } catch (error) {
          throw await recoverFrom(error);
        }
      }),
    exclusive: (work) => waitingOutBusy(() => work(client)),
    dataVersion: async () => {
      if (location.kind === "remote") return undefined;
      // Other connections of this process: counted here, so a read right after their commit sees it.
      const otherLocalCommits = shared.commits - ownCommits;
      if (turnVersion === undefined) {
        turnVersion = await lock.run(async () => {
          const [row] = (await client.execute("PRAGMA data_version")).rows;
          return `${reconnects}:${String(row?.[0])}`;
        });
        setImmediate(() => {
          turnVersion = undefined;
        });
      }
      return `${turnVersion}:${otherLocalCommits}`;
    },
    close: async () => {
      client.close();
      await checkpointer?.stop();
    },
  };
}

function createClientFor(location: StoreLocation, busyTimeoutMs: number): SqlClient {
  switch (location.kind) {
    case "memory":
      return new LocalClient(":memory:", Math.min(busyTimeoutMs, SYNC_BUSY_WAIT_MS));
    case "file":
      // One connection, so the pragmas set above apply to every statement;
      // `timeout` repeats busy_timeout for when it is reopened: the short synchronous wait.
      createPrivateFile(resolve(location.path));
      return new LocalClient(resolve(location.path), Math.min(busyTimeoutMs, SYNC_BUSY_WAIT_MS));
    case "remote":
      return createClient(
        location.authToken === undefined
          ? { url: location.url }
          : { url: location.url, authToken: location.authToken },
      );
  }
}
