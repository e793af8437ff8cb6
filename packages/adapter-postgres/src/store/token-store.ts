/**
 * berthd's API tokens in the PostgreSQL database (table `api_tokens`), so
 * every server on it knows the same tokens. Same records and errors as the
 * SQLite store's `SqliteTokenStore`; not part of the engine's Store port.
 *
 * Every request names a token, and looking it up was one round trip per
 * request (as many as the whole claim of a create), so tokens found are
 * kept in memory while the store's LISTEN connection is up: every write to
 * `api_tokens` sends a notification in its own transaction (delivered when
 * it commits), and each server drops everything it kept when one arrives,
 * when the LISTEN connection is lost or comes back. A revoked token is
 * refused by the server that revoked it at once and by the others as soon
 * as the notification reaches them (the same wake-up that carries claims);
 * while the LISTEN connection is down, every request reads the table.
 */
import { conflict } from "@berth/engine";
import type { Pools } from "../connection/pools.js";
import { CredentialCache, type TokenChanges } from "./credential-cache.js";

/** Past this many kept tokens, the cache starts afresh (bounded memory against many distinct tokens). */
const MAX_KEPT_TOKENS = 1_000;

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
  readonly #kept: CredentialCache<ApiTokenRecord | undefined>;

  constructor(
    private readonly pools: Pools,
    changes: TokenChanges,
  ) {
    this.#kept = new CredentialCache(changes, MAX_KEPT_TOKENS);
  }

  create(record: ApiTokenRecord): Promise<void> {
    return this.#kept.write(this.pools, async (tx) => {
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

  /** Unknown tokens are never kept: a token created on another server works at once. */
  findByHash(hash: string): Promise<ApiTokenRecord | undefined> {
    return this.#kept.get(
      hash,
      async () => {
        const [row] = await this.pools.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE hash = $1`, [
          hash,
        ]);
        return row === undefined ? undefined : recordOf(row);
      },
      (record) => record !== undefined,
    );
  }

  /** In name order. */
  async list(): Promise<ApiTokenRecord[]> {
    return (await this.pools.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens ORDER BY name`)).map(
      recordOf,
    );
  }

  /** Replaces the projects of a restricted token (a project renamed or deleted); false when there is no such token. */
  setProjects(id: string, projects: string[]): Promise<boolean> {
    return this.#kept.write(
      this.pools,
      async (tx) =>
        (await tx.run("UPDATE api_tokens SET projects = $1 WHERE id = $2", [JSON.stringify(projects), id])) >
        0,
    );
  }

  /** By id or name; false when there was no such token. */
  delete(idOrName: string): Promise<boolean> {
    return this.#kept.write(
      this.pools,
      async (tx) => (await tx.run("DELETE FROM api_tokens WHERE id = $1 OR name = $1", [idOrName])) > 0,
    );
  }
}
