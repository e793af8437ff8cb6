/**
 * What a server keeps in memory of the credentials every request checks (API tokens by hash,
 * client certificates by fingerprint), and how it lets go: every write to those tables notifies
 * `berth_tokens` in its own transaction (delivered when it commits), and each server drops all it
 * kept when one arrives, when its LISTEN connection comes back, and, as the writer, once its own
 * write commits. While the LISTEN connection is down nothing is answered from memory as long as
 * the database can be read; when it cannot (an outage), an answer kept while the connection was
 * still up is used, so requests served from memory keep answering: a change could only be missed
 * if it committed in the instant between its notification and the connection's loss. An answer
 * may also be kept for a bounded time only.
 */
import { isEngineError } from "@berth/engine";
import { type CredentialTables, pgRunner, type ReadMemo } from "@berth/sql-core";
import type { Pools } from "../connection/pools.js";
import { type CredentialsEvent, TOKENS_CHANNEL } from "./feed.js";
import { transactions } from "./member-side.js";

/** Whether kept answers can be trusted now (the LISTEN connection is up), and who to tell of changes. */
export interface TokenChanges {
  readonly live: boolean;
  watchTokens(changed: (event: CredentialsEvent) => void): void;
}

/**
 * The credential tables on `pools`: reads are single statements on a read
 * connection (no BEGIN/COMMIT round trips); a write that changes
 * credentials notifies every server when it commits.
 */
export function credentialTables(pools: Pools): CredentialTables {
  return {
    read: (work) =>
      work(
        pgRunner({
          rows: (text, params) => pools.query(text, params),
          run: (text) => Promise.reject(new Error(`a write outside a transaction: ${text}`)),
        }),
      ),
    write: transactions(pools).write,
    announce: async (db) => {
      await db.run(`SELECT pg_notify('${TOKENS_CHANNEL}', '')`);
    },
  };
}

interface Kept {
  value: unknown;
  keptAtMs: number;
}

export class CredentialCache implements ReadMemo {
  readonly #kept = new Map<string, Kept>();
  /** What was kept when the LISTEN connection was lost: answered only while the database cannot be read. */
  #beforeOutage = new Map<string, Kept>();
  /** Moves whenever the kept answers are dropped: a lookup that started before keeps nothing. */
  #generation = 0;

  /**
   * `maxKept`: past this many answers the cache starts afresh (bounded memory against many
   * distinct keys). `keepMs`: the longest an answer is used, whatever the notifications say.
   * `keeps`: which answers are kept at all (the others are read every time).
   */
  constructor(
    private readonly changes: TokenChanges,
    private readonly maxKept: number,
    private readonly keeps: (key: string, value: unknown) => boolean,
    private readonly keepMs = Number.POSITIVE_INFINITY,
  ) {
    changes.watchTokens((event) => {
      if (event === "lost" && this.#kept.size > 0) this.#beforeOutage = new Map(this.#kept);
      else if (event !== "lost") this.#beforeOutage.clear();
      this.forgetKept();
    });
  }

  forget(): void {
    this.#beforeOutage.clear();
    this.forgetKept();
  }

  private forgetKept(): void {
    this.#generation += 1;
    this.#kept.clear();
  }

  /**
   * The kept answer for `key` (a copy), else `read()`'s, kept when `keeps` says so and nothing
   * changed (or was missed) while it was read. When `read()` finds the database unavailable, the
   * answer kept before the LISTEN connection was lost, if any.
   */
  async get<T>(key: string, read: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const fresh = (kept: Kept | undefined): kept is Kept =>
      kept !== undefined && now - kept.keptAtMs < this.keepMs;
    if (this.changes.live) {
      const kept = this.#kept.get(key);
      if (fresh(kept)) return structuredClone(kept.value as T);
    }
    const generation = this.#generation;
    let value: T;
    try {
      value = await read();
    } catch (error) {
      const kept = this.#beforeOutage.get(key);
      if (isEngineError(error, "unavailable") && !this.changes.live && fresh(kept))
        return structuredClone(kept.value as T);
      throw error;
    }
    if (this.changes.live && generation === this.#generation && this.keeps(key, value)) {
      if (this.#kept.size >= this.maxKept) this.#kept.clear();
      this.#kept.set(key, { value: structuredClone(value), keptAtMs: now });
    }
    return value;
  }
}
