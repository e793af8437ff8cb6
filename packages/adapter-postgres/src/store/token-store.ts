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
import type { Pools, Tx } from "../connection/pools.js";
import { TOKENS_CHANNEL } from "./feed.js";

/** Past this many kept tokens, the cache starts afresh (bounded memory against many distinct tokens). */
const MAX_KEPT_TOKENS = 1_000;

/** Whether kept tokens can be trusted now (the LISTEN connection is up). */
export interface TokenChanges {
  readonly live: boolean;
  watchTokens(changed: () => void): void;
}

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

/** Tells every server, when `tx` commits, that credentials changed (API tokens or trusted certificates). */
export async function notifyTokensChanged(tx: Tx): Promise<void> {
  await tx.run(`SELECT pg_notify('${TOKENS_CHANNEL}', '')`);
}

export class PostgresTokenStore {
  readonly #kept = new Map<string, ApiTokenRecord>();
  /** Moves whenever the kept tokens are dropped: a lookup that started before keeps nothing. */
  #generation = 0;

  constructor(
    private readonly pools: Pools,
    private readonly changes: TokenChanges,
  ) {
    changes.watchTokens(() => this.forget());
  }

  private forget(): void {
    this.#generation += 1;
    this.#kept.clear();
  }

  /** A token write, announced to every server; this one forgets what it kept once it commits. */
  private async write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await this.pools.writeTx(async (tx) => {
        const result = await work(tx);
        await notifyTokensChanged(tx);
        return result;
      });
    } finally {
      this.forget();
    }
  }

  create(record: ApiTokenRecord): Promise<void> {
    return this.write(async (tx) => {
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
    if (this.changes.live) {
      const kept = this.#kept.get(hash);
      if (kept !== undefined) return kept;
    }
    const generation = this.#generation;
    const [row] = await this.pools.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE hash = $1`, [
      hash,
    ]);
    if (row === undefined) return undefined;
    const record = recordOf(row);
    // Kept only if nothing changed (or was missed) while it was read; unknown tokens are never kept.
    if (this.changes.live && generation === this.#generation) {
      if (this.#kept.size >= MAX_KEPT_TOKENS) this.#kept.clear();
      this.#kept.set(hash, record);
    }
    return record;
  }

  /** In name order. */
  async list(): Promise<ApiTokenRecord[]> {
    return (await this.pools.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens ORDER BY name`)).map(
      recordOf,
    );
  }

  /** Replaces the projects of a restricted token (a project renamed or deleted); false when there is no such token. */
  setProjects(id: string, projects: string[]): Promise<boolean> {
    return this.write(
      async (tx) =>
        (await tx.run("UPDATE api_tokens SET projects = $1 WHERE id = $2", [JSON.stringify(projects), id])) >
        0,
    );
  }

  /** By id or name; false when there was no such token. */
  delete(idOrName: string): Promise<boolean> {
    return this.write(
      async (tx) => (await tx.run("DELETE FROM api_tokens WHERE id = $1 OR name = $1", [idOrName])) > 0,
    );
  }
}
