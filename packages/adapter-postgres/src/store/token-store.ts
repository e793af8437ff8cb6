/**
 * berthd's API tokens in the PostgreSQL database (table `api_tokens`,
 * statements in @berth/sql-core), so every server on it knows the same
 * tokens; not part of the engine's Store port.
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
import { type ApiTokenRecord, apiTokenRows } from "@berth/sql-core";
import type { Pools } from "../connection/pools.js";
import { CredentialCache, type TokenChanges } from "./credential-cache.js";
import { readRunner, txRunner } from "./runners.js";

/** Past this many kept tokens, the cache starts afresh (bounded memory against many distinct tokens). */
const MAX_KEPT_TOKENS = 1_000;

/**
 * berthd's API tokens, shared by every server on the database (see the file's comment for how
 * lookups are kept).
 */
export class PostgresTokenStore {
  readonly #kept: CredentialCache<ApiTokenRecord | undefined>;

  constructor(
    private readonly pools: Pools,
    changes: TokenChanges,
  ) {
    this.#kept = new CredentialCache(changes, MAX_KEPT_TOKENS);
  }

  /**
   * Stores a new token (only its secret's hash); every server knows it at once, since unknown
   * tokens are never kept.
   */
  create(record: ApiTokenRecord): Promise<void> {
    return this.#kept.write(this.pools, (tx) => apiTokenRows.insert(txRunner(tx), record));
  }

  /** Unknown tokens are never kept: a token created on another server works at once. */
  findByHash(hash: string): Promise<ApiTokenRecord | undefined> {
    return this.#kept.get(
      hash,
      () => apiTokenRows.byHash(readRunner(this.pools), hash),
      (record) => record !== undefined,
    );
  }

  /** In name order. */
  list(): Promise<ApiTokenRecord[]> {
    return apiTokenRows.list(readRunner(this.pools));
  }

  /** Replaces the projects of a restricted token (a project renamed or deleted); false when there is no such token. */
  setProjects(id: string, projects: string[]): Promise<boolean> {
    return this.#kept.write(this.pools, (tx) => apiTokenRows.setProjects(txRunner(tx), id, projects));
  }

  /** By id or name; false when there was no such token. */
  delete(idOrName: string): Promise<boolean> {
    return this.#kept.write(this.pools, (tx) => apiTokenRows.delete(txRunner(tx), idOrName));
  }
}

export type { ApiTokenRecord };
