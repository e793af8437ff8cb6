/**
 * Which store a `--db` value names: a PostgreSQL URL opens
 * `@berth/adapter-postgres` (several servers on one database), anything
 * else `@berth/adapter-sqlite` (a file, `:memory:`, a libSQL URL).
 */
import { isPostgresUrl } from "@berth/adapter-postgres/settings";
import { openStore } from "@berth/adapter-sqlite";
import type { Store } from "@berth/engine";
import type { TokenStore } from "../auth/token-store.js";
import type { TrustStore } from "../trust/trust-store.js";
import { legacyTokenFileFor } from "./legacy-tokens.js";
import type { DatabaseOptions } from "./options.js";

export interface OpenedStore {
  store: Store;
  tokens: TokenStore;
  /** Trusted client certificates and pending trust tokens, in the same database. */
  trust: TrustStore;
  /** Where an older berthd kept tokens beside this database (SQLite files only). */
  legacyTokenFile: string | undefined;
  /** `check()` of the store's invariants. */
  check(): Promise<{ ok: boolean; violations: unknown[] }>;
}

export async function openDatabase(
  db: string,
  options?: DatabaseOptions,
  onConnectionError?: (error: Error) => void,
): Promise<OpenedStore> {
  if (isPostgresUrl(db)) {
    // Loaded only here: pg and the PostgreSQL store cost a SQLite start ~60 ms and ~5 MiB.
    const { openPostgresStore } = await import("@berth/adapter-postgres");
    const store = await openPostgresStore(db, {
      ...(options === undefined
        ? {}
        : {
            poolSize: options.poolSize,
            readPoolSize: options.readPoolSize,
            lockTimeoutMs: options.lockTimeoutMs,
            statementTimeoutMs: options.statementTimeoutMs,
            claimBatches: { commitDelayMs: options.commitDelayMs },
            feedRetentionMs: options.feedRetentionMs,
          }),
      ...(onConnectionError === undefined ? {} : { onConnectionError }),
    });
    return {
      store,
      tokens: store.tokens,
      trust: store.trust,
      legacyTokenFile: undefined,
      check: () => store.check(),
    };
  }
  // The same bound for SQLite: how long a write waits for another process's write lock.
  const store = await openStore(
    db,
    options === undefined
      ? {}
      : { busyTimeoutMs: options.lockTimeoutMs, feedRetentionMs: options.feedRetentionMs },
  );
  return {
    store,
    tokens: store.tokens,
    trust: store.trust,
    legacyTokenFile: legacyTokenFileFor(db),
    check: () => store.check(),
  };
}
