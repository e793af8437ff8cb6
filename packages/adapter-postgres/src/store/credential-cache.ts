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
import type { Pools, Tx } from "../connection/pools.js";
import { type CredentialsEvent, TOKENS_CHANNEL } from "./feed.js";

/** Whether kept answers can be trusted now (the LISTEN connection is up), and who to tell of changes. */
export interface TokenChanges {
  readonly live: boolean;
  watchTokens(changed: (event: CredentialsEvent) => void): void;
}

/** Tells every server, when `tx` commits, that credentials changed. */
export async function notifyCredentialsChanged(tx: Tx): Promise<void> {
  await tx.run(`SELECT pg_notify('${TOKENS_CHANNEL}', '')`);
}

interface Kept<V> {
  value: V;
  keptAtMs: number;
}

export class CredentialCache<V> {
  readonly #kept = new Map<string, Kept<V>>();
  /** What was kept when the LISTEN connection was lost: answered only while the database cannot be read. */
  #beforeOutage = new Map<string, Kept<V>>();
  /** Moves whenever the kept answers are dropped: a lookup that started before keeps nothing. */
  #generation = 0;

  /**
   * `maxKept`: past this many answers the cache starts afresh (bounded memory against many
   * distinct keys). `keepMs`: the longest an answer is used, whatever the notifications say.
   */
  constructor(
    private readonly changes: TokenChanges,
    private readonly maxKept: number,
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
   * The kept answer for `key`, else `read()`'s, kept when `keep` says so and nothing changed (or
   * was missed) while it was read. When `read()` finds the database unavailable, the answer kept
   * before the LISTEN connection was lost, if any.
   */
  async get(key: string, read: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const now = Date.now();
    const fresh = (kept: Kept<V> | undefined): kept is Kept<V> =>
      kept !== undefined && now - kept.keptAtMs < this.keepMs;
    if (this.changes.live) {
      const kept = this.#kept.get(key);
      if (fresh(kept)) return kept.value;
    }
    const generation = this.#generation;
    let value: V;
    try {
      value = await read();
    } catch (error) {
      const kept = this.#beforeOutage.get(key);
      if (isEngineError(error, "unavailable") && !this.changes.live && fresh(kept)) return kept.value;
      throw error;
    }
    if (this.changes.live && generation === this.#generation && keep(value)) {
      if (this.#kept.size >= this.maxKept) this.#kept.clear();
      this.#kept.set(key, { value, keptAtMs: now });
    }
    return value;
  }

  /** A credential write, announced to every server; this one forgets what it kept once it commits. */
  async write<T>(pools: Pools, work: (tx: Tx) => Promise<T>): Promise<T> {
    try {
      return await pools.writeTx(async (tx) => {
        const result = await work(tx);
        await notifyCredentialsChanged(tx);
        return result;
      });
    } finally {
      this.forget();
    }
  }
}
