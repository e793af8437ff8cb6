import { type ApiTokenRecord, apiTokenRows, type SqlRunner, sqliteRunner } from "@berth/sql-core";
import type { Connection } from "../connection/open-connection.js";
import { ReadCache } from "./read-cache.js";

/**
 * The server's API tokens, in the store's own database (table `api_tokens`,
 * statements in @berth/sql-core) and on its connection, so token writes
 * queue with every other write of the process and every server sharing the
 * database sees them at once. Deliberately not part of the engine's Store
 * port: placement never needs tokens. Every authenticated request looks its
 * token up: lookups are answered from memory while no connection changed
 * the database (see ReadCache), so a token revoked by any process is
 * refused on the very next request.
 */
export class SqliteTokenStore {
  readonly #cache: ReadCache;

  constructor(private readonly connection: Connection) {
    this.#cache = new ReadCache(connection);
  }

  /** Conflict when the name (or, absurdly, the hash) is taken. */
  create(record: ApiTokenRecord): Promise<void> {
    return this.written((db) => apiTokenRows.insert(db, record));
  }

  /**
   * The token whose secret hashes to `hash` (berthd's check on every request), answered from
   * memory until any connection writes to the file.
   */
  findByHash(hash: string): Promise<ApiTokenRecord | undefined> {
    return this.#cache.get(`hash\u0000${hash}`, () => this.read((db) => apiTokenRows.byHash(db, hash)));
  }

  /** In name order. */
  list(): Promise<ApiTokenRecord[]> {
    return this.#cache.get("list", () => this.read((db) => apiTokenRows.list(db)));
  }

  /** Replaces the projects of a restricted token (a project renamed or deleted); false when there is no such token. */
  setProjects(id: string, projects: string[]): Promise<boolean> {
    return this.written((db) => apiTokenRows.setProjects(db, id, projects));
  }

  /** By id or name; false when there was no such token. */
  delete(idOrName: string): Promise<boolean> {
    return this.written((db) => apiTokenRows.delete(db, idOrName));
  }

  private read<R>(work: (db: SqlRunner) => Promise<R>): Promise<R> {
    return this.connection.read((_db, raw) => work(sqliteRunner(raw)));
  }

  private async written<R>(work: (db: SqlRunner) => Promise<R>): Promise<R> {
    try {
      return await this.connection.write((_db, raw) => work(sqliteRunner(raw)));
    } finally {
      this.#cache.invalidate();
    }
  }
}

export type { ApiTokenRecord };
