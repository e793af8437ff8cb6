import { conflict } from "@berth/engine";
import type { Row } from "@libsql/client";
import type { Connection, Work } from "../connection/open-connection.js";
import { ReadCache } from "./read-cache.js";

/** A server API token as stored: only the hash of its secret. */
export interface ApiTokenRecord {
  id: string;
  name: string;
  description?: string;
  /** Hex SHA-256 of the secret. */
  hash: string;
  admin: boolean;
  /** Projects a restricted token may use; empty for admin tokens. */
  projects: string[];
  /** ISO 8601. */
  created_at: string;
}

const COLUMNS = "id, name, description, hash, admin, projects, created_at";

function recordOf(row: Row): ApiTokenRecord {
  const record: ApiTokenRecord = {
    id: String(row.id),
    name: String(row.name),
    hash: String(row.hash),
    admin: Number(row.admin) === 1,
    projects: JSON.parse(String(row.projects)) as string[],
    created_at: String(row.created_at),
  };
  if (row.description !== null && row.description !== undefined) record.description = String(row.description);
  return record;
}

/**
 * The server's API tokens, in the store's own database (table `api_tokens`)
 * and on its connection, so token writes queue with every other write of
 * the process and every server sharing the database sees them at once.
 * Deliberately not part of the engine's Store port: placement never needs
 * tokens. Every authenticated request looks its token up: lookups are
 * answered from memory while no connection changed the database (see
 * ReadCache), so a token revoked by any process is refused on the very
 * next request.
 */
export class SqliteTokenStore {
  readonly #cache: ReadCache;

  constructor(private readonly connection: Connection) {
    this.#cache = new ReadCache(connection);
  }

  /** Conflict when the name (or, absurdly, the hash) is taken. */
  create(record: ApiTokenRecord): Promise<void> {
    return this.written(async (_db, raw) => {
      const [taken] = await raw.rows("SELECT name FROM api_tokens WHERE name = ? OR hash = ? OR id = ?", [
        record.name,
        record.hash,
        record.id,
      ]);
      if (taken !== undefined) throw conflict(`Token "${record.name}" already exists`);
      await raw.run(`INSERT INTO api_tokens (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
        record.id,
        record.name,
        record.description ?? null,
        record.hash,
        record.admin ? 1 : 0,
        JSON.stringify(record.projects),
        record.created_at,
      ]);
    });
  }

  findByHash(hash: string): Promise<ApiTokenRecord | undefined> {
    return this.#cache.get(`hash\u0000${hash}`, () =>
      this.connection.read(async (_db, raw) => {
        const [row] = await raw.rows(`SELECT ${COLUMNS} FROM api_tokens WHERE hash = ?`, [hash]);
        return row === undefined ? undefined : recordOf(row);
      }),
    );
  }

  /** In name order. */
  list(): Promise<ApiTokenRecord[]> {
    return this.#cache.get("list", () =>
      this.connection.read(async (_db, raw) =>
        (await raw.rows(`SELECT ${COLUMNS} FROM api_tokens ORDER BY name`)).map(recordOf),
      ),
    );
  }

  /** Replaces the projects of a restricted token (a project renamed or deleted); false when there is no such token. */
  setProjects(id: string, projects: string[]): Promise<boolean> {
    return this.written(
      async (_db, raw) =>
        (await raw.run("UPDATE api_tokens SET projects = ? WHERE id = ?", [JSON.stringify(projects), id])) >
        0,
    );
  }

  /** By id or name; false when there was no such token. */
  delete(idOrName: string): Promise<boolean> {
    return this.written(
      async (_db, raw) =>
        (await raw.run("DELETE FROM api_tokens WHERE id = ? OR name = ?", [idOrName, idOrName])) > 0,
    );
  }

  private async written<R>(work: Work<R>): Promise<R> {
    try {
      return await this.connection.write(work);
    } finally {
      this.#cache.invalidate();
    }
  }
}
