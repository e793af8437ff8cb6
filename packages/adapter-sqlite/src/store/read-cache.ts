import { deepFreeze } from "@berth/engine";
import type { ReadMemo } from "@berth/sql-core";
import type { Connection } from "../connection/open-connection.js";

/**
 * Answers repeated reads of rarely written tables (catalog rows, API tokens)
 * from memory while nothing can have changed them. Every placement reads
 * the project's profiles and every request looks its token up; without
 * this each was a read transaction. Two things empty the cache: a commit
 * by ANY other connection to the database (SQLite's `PRAGMA data_version`
 * moves, checked on every read: one compiled statement, no transaction),
 * and a write to the cached tables through this connection (the writers
 * call `forget`). Other connections' claims therefore empty it too:
 * with several processes on one file it only saves work between their
 * writes, and it is never stale. Remote databases have no such signal:
 * there every read goes to the database.
 *
 * Callers get a copy; a `shared` cache (credentials, looked up per request;
 * no caller changes one) hands out what it keeps, frozen: the copy was ~3 µs
 * of a lone create's ~700 µs of CPU (perf-http-4).
 */
export class ReadCache implements ReadMemo {
  #seen: string | undefined;
  #generation = 0;
  readonly #entries = new Map<string, unknown>();

  constructor(
    private readonly connection: Connection,
    private readonly shared = false,
  ) {}

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const version = await this.connection.dataVersion();
    if (version === undefined) return load();
    if (version !== this.#seen) {
      this.forget();
      this.#seen = version;
    }
    const kept = this.#entries.get(key) as T | undefined;
    if (kept !== undefined || this.#entries.has(key))
      return this.shared ? (kept as T) : structuredClone(kept as T);
    const generation = this.#generation;
    const value = await load();
    // A write through this connection while loading may have made `value` stale: keep it only if none did.
    if (generation === this.#generation)
      this.#entries.set(key, this.shared ? deepFreeze(value) : structuredClone(value));
    return value;
  }

  /** After this connection wrote a cached table. */
  forget(): void {
    this.#generation += 1;
    this.#entries.clear();
  }
}
