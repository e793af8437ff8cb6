/**
 * berthd's API tokens in the PostgreSQL database (table `api_tokens`), so
 * every server on it knows the same tokens and a revocation reaches all of
 * them on the next request. Same records and errors as the SQLite store's
 * `SqliteTokenStore`; not part of the engine's Store port.
 */
import { conflict } from "@berth/engine";
import type { Pools } from "../connection/pools.js";

export interface ApiTokenRecord {
  id: string;
  name: string;
  description?: string;
  hash: string;
  admin: boolean;
  projects: string[];
  created_at: string;
}

const COLUMNS = "id, name, description, hash, admin, projects, created_at";

interface TokenRow {
  id: string;
  name: string;
  description: string | null;
  hash: string;
  admin: boolean;
  projects: string[];
  created_at: string;
}

function recordOf(row: TokenRow): ApiTokenRecord {
  const record: ApiTokenRecord = {
    id: row.id,
    name: row.name,
    hash: row.hash,
    admin: row.admin,
    projects: row.projects,
    created_at: row.created_at,
  };
  if (row.description !== null) record.description = row.description;
  return record;
}

export class PostgresTokenStore {
  constructor(private readonly pools: Pools) {}

  create(record: ApiTokenRecord): Promise<void> {
    return this.pools.writeTx(async (tx) => {
      const [taken] = await tx.rows("SELECT 1 FROM api_tokens WHERE name = $1 OR hash = $2 OR id = $3", [
        record.name,
        record.hash,
        record.id,
      ]);
      if (taken !== undefined) throw conflict(`Token "${record.name}" already exists`);
      await tx.run(`INSERT INTO api_tokens (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        record.id,
        record.name,
        record.description ?? null,
        record.hash,
        record.admin,
        JSON.stringify(record.projects),
        record.created_at,
      ]);
    });
  }

  async findByHash(hash: string): Promise<ApiTokenRecord | undefined> {
    const [row] = await this.pools.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE hash = $1`, [
      hash,
    ]);
    return row === undefined ? undefined : recordOf(row);
  }

  /** In name order. */
  async list(): Promise<ApiTokenRecord[]> {
    return (await this.pools.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens ORDER BY name`)).map(
      recordOf,
    );
  }

  /** Replaces the projects of a restricted token (a project renamed or deleted); false when there is no such token. */
  setProjects(id: string, projects: string[]): Promise<boolean> {
    return this.pools.writeTx(
      async (tx) =>
        (await tx.run("UPDATE api_tokens SET projects = $1 WHERE id = $2", [JSON.stringify(projects), id])) >
        0,
    );
  }

  /** By id or name; false when there was no such token. */
  delete(idOrName: string): Promise<boolean> {
    return this.pools.writeTx(
      async (tx) => (await tx.run("DELETE FROM api_tokens WHERE id = $1 OR name = $1", [idOrName])) > 0,
    );
  }
}
