/**
 * berthd's trust store in the PostgreSQL database (tables
 * `trusted_certificates` and `trust_tokens`, statements in @berth/sql-core): every server on it trusts
 * the same client certificates at once and can redeem, list or revoke any
 * pending certificate-add token. Same records and errors as the SQLite
 * store's `SqliteTrustStore`; not part of the engine's Store port.
 *
 * Every HTTPS request looks its client certificate up; the answers (trusted
 * or not) are kept in memory the way API tokens are (token-store.ts): every
 * write to `trusted_certificates` notifies `berth_tokens` in its own
 * transaction, and each server drops what it kept when a notification
 * arrives, when its LISTEN connection is lost or comes back; while that
 * connection is down every lookup reads the table. An answer is also kept
 * at most KEEP_MS, so even a notification lost on a connection that looks
 * alive delays a removal on another server by no more than that. The
 * server that removed a certificate refuses it at once.
 */
import { type TrustedCertificateRecord, type TrustTokenRecord, trustRows } from "@berth/sql-core";
import type { Pools, Tx } from "../connection/pools.js";
import { CredentialCache, notifyCredentialsChanged, type TokenChanges } from "./credential-cache.js";
import { readRunner, txRunner } from "./runners.js";

/** Past this many kept answers, the cache starts afresh (bounded memory against many distinct certificates). */
const MAX_KEPT_CERTIFICATES = 1_000;
/** The longest an answer is kept, whatever the notifications say. */
const KEEP_MS = 10_000;

/**
 * berthd's trusted client certificates and pending certificate-add tokens, shared by every server
 * on the database (see the file's comment for how lookups are kept).
 */
export class PostgresTrustStore {
  /** Answers by fingerprint, "not trusted" included (a certificate trusted anywhere drops them). */
  readonly #kept: CredentialCache<TrustedCertificateRecord | undefined>;

  constructor(
    private readonly pools: Pools,
    changes: TokenChanges,
  ) {
    this.#kept = new CredentialCache(changes, MAX_KEPT_CERTIFICATES, KEEP_MS);
  }

  /** A certificate write, announced to every server; this one forgets what it kept once it commits. */
  private certificateWrite<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.#kept.write(this.pools, work);
  }

  /** In name order, then fingerprint. */
  listCertificates(): Promise<TrustedCertificateRecord[]> {
    return trustRows.certificates(readRunner(this.pools));
  }

  /** From memory while the LISTEN connection is up and the answer is fresh (see above); else one read. */
  async certificate(fingerprint: string): Promise<TrustedCertificateRecord | undefined> {
    const found = await this.#kept.get(fingerprint, () =>
      trustRows.certificate(readRunner(this.pools), fingerprint),
    );
    // Callers get their own copy: the kept one stays as read.
    return structuredClone(found);
  }

  /** Two servers adding the same certificate at once: one adds it, the other gets the conflict. */
  addCertificate(record: TrustedCertificateRecord): Promise<void> {
    return this.certificateWrite((tx) => trustRows.addCertificate(txRunner(tx), record));
  }

  /** False when no certificate has that fingerprint; every server refuses it once notified. */
  removeCertificate(fingerprint: string): Promise<boolean> {
    return this.certificateWrite((tx) => trustRows.removeCertificate(txRunner(tx), fingerprint));
  }

  /**
   * Replaces a restricted certificate's projects (a project renamed or deleted); false when there
   * is none.
   */
  setCertificateProjects(fingerprint: string, projects: string[]): Promise<boolean> {
    return this.certificateWrite((tx) =>
      trustRows.setCertificateProjects(txRunner(tx), fingerprint, projects),
    );
  }

  /** Stores a pending certificate-add token (only its secret's hash). */
  createToken(record: TrustTokenRecord): Promise<void> {
    return this.pools.writeTx((tx) => trustRows.createToken(txRunner(tx), record));
  }

  /** Replaces a pending token's projects (a project renamed or deleted); false when there is none. */
  setTokenProjects(id: string, projects: string[]): Promise<boolean> {
    return this.pools.writeTx((tx) => trustRows.setTokenProjects(txRunner(tx), id, projects));
  }

  /** The tokens not yet expired at `now` (ISO 8601), oldest first; expired ones are dropped. */
  listTokens(now: string): Promise<TrustTokenRecord[]> {
    return this.pools.writeTx((tx) => trustRows.liveTokens(txRunner(tx), now));
  }

  /** Revokes a pending token; false when there is none with that id. */
  cancelToken(id: string): Promise<boolean> {
    return this.pools.writeTx((tx) => trustRows.cancelToken(txRunner(tx), id));
  }

  /** One transaction (see `trustRows.redeemToken`), so two servers cannot both redeem a token. */
  redeemToken(
    secretHash: string,
    now: string,
    certificateFor: (token: TrustTokenRecord) => TrustedCertificateRecord,
  ): Promise<{ token: TrustTokenRecord; certificate: TrustedCertificateRecord } | undefined> {
    // Announced only when a certificate is trusted: wrong passwords change nothing to tell anyone.
    return this.pools
      .writeTx(async (tx) => {
        const redeemed = await trustRows.redeemToken(txRunner(tx), secretHash, now, certificateFor);
        if (redeemed !== undefined) await notifyCredentialsChanged(tx);
        return redeemed;
      })
      .then((redeemed) => {
        if (redeemed !== undefined) this.#kept.forget();
        return redeemed;
      });
  }
}

export type { TrustedCertificateRecord, TrustTokenRecord };
