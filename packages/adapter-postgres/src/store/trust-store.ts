/**
 * berthd's trust store in the PostgreSQL database (tables
 * `trusted_certificates` and `trust_tokens`): every server on it trusts
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
import type { TrustedCertificateRecord, TrustTokenRecord } from "@berth/api-types";
import { conflict } from "@berth/engine";
import type { Pools, Tx } from "../connection/pools.js";
import { CredentialCache, notifyCredentialsChanged, type TokenChanges } from "./credential-cache.js";

/** Past this many kept answers, the cache starts afresh (bounded memory against many distinct certificates). */
const MAX_KEPT_CERTIFICATES = 1_000;
/** The longest an answer is kept, whatever the notifications say. */
const KEEP_MS = 10_000;

const CERTIFICATE_COLUMNS = "fingerprint, name, type, restricted, projects, certificate, created_at";
const TOKEN_COLUMNS = "id, name, secret_hash, restricted, projects, created_at, expires_at";

/** Answers whether the row was inserted (false: the fingerprint is trusted already). */
async function insertCertificate(tx: Tx, record: TrustedCertificateRecord): Promise<boolean> {
  const inserted = await tx.run(
    `INSERT INTO trusted_certificates (${CERTIFICATE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (fingerprint) DO NOTHING`,
    [
      record.fingerprint,
      record.name,
      record.type,
      record.restricted,
      JSON.stringify(record.projects),
      record.certificate,
      record.created_at,
    ],
  );
  return inserted > 0;
}

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
    return this.pools.query<TrustedCertificateRecord>(
      `SELECT ${CERTIFICATE_COLUMNS} FROM trusted_certificates ORDER BY name, fingerprint`,
    );
  }

  /** From memory while the LISTEN connection is up and the answer is fresh (see above); else one read. */
  async certificate(fingerprint: string): Promise<TrustedCertificateRecord | undefined> {
    const found = await this.#kept.get(fingerprint, async () => {
      const [row] = await this.pools.query<TrustedCertificateRecord>(
        `SELECT ${CERTIFICATE_COLUMNS} FROM trusted_certificates WHERE fingerprint = $1`,
        [fingerprint],
      );
      return row;
    });
    // Callers get their own copy: the kept one stays as read.
    return structuredClone(found);
  }

  /** Two servers adding the same certificate at once: one adds it, the other gets the conflict. */
  addCertificate(record: TrustedCertificateRecord): Promise<void> {
    return this.certificateWrite(async (tx) => {
      if (!(await insertCertificate(tx, record))) throw conflict("Certificate already in trust store");
    });
  }

  removeCertificate(fingerprint: string): Promise<boolean> {
    return this.certificateWrite(
      async (tx) =>
        (await tx.run("DELETE FROM trusted_certificates WHERE fingerprint = $1", [fingerprint])) > 0,
    );
  }

  setCertificateProjects(fingerprint: string, projects: string[]): Promise<boolean> {
    return this.certificateWrite(
      async (tx) =>
        (await tx.run("UPDATE trusted_certificates SET projects = $1 WHERE fingerprint = $2", [
          JSON.stringify(projects),
          fingerprint,
        ])) > 0,
    );
  }

  createToken(record: TrustTokenRecord): Promise<void> {
    return this.pools.writeTx(async (tx) => {
      await tx.run(`INSERT INTO trust_tokens (${TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        record.id,
        record.name,
        record.secret_hash,
        record.restricted,
        JSON.stringify(record.projects),
        record.created_at,
        record.expires_at,
      ]);
    });
  }

  /** Replaces a pending token's projects (a project renamed or deleted); false when there is none. */
  setTokenProjects(id: string, projects: string[]): Promise<boolean> {
    return this.pools.writeTx(
      async (tx) =>
        (await tx.run("UPDATE trust_tokens SET projects = $1 WHERE id = $2", [
          JSON.stringify(projects),
          id,
        ])) > 0,
    );
  }

  listTokens(now: string): Promise<TrustTokenRecord[]> {
    return this.pools.writeTx(async (tx) => {
      await tx.run("DELETE FROM trust_tokens WHERE expires_at <= $1", [now]);
      return tx.rows<TrustTokenRecord>(`SELECT ${TOKEN_COLUMNS} FROM trust_tokens ORDER BY created_at, id`);
    });
  }

  cancelToken(id: string): Promise<boolean> {
    return this.pools.writeTx(
      async (tx) => (await tx.run("DELETE FROM trust_tokens WHERE id = $1", [id])) > 0,
    );
  }

  /** One transaction; the token row is deleted with `RETURNING`, so two servers cannot both redeem it. */
  redeemToken(
    secretHash: string,
    now: string,
    certificateFor: (token: TrustTokenRecord) => TrustedCertificateRecord,
  ): Promise<{ token: TrustTokenRecord; certificate: TrustedCertificateRecord } | undefined> {
    // Announced only when a certificate is trusted: wrong passwords change nothing to tell anyone.
    return this.pools
      .writeTx(async (tx) => {
        const [token] = await tx.rows<TrustTokenRecord>(
          `DELETE FROM trust_tokens WHERE secret_hash = $1 RETURNING ${TOKEN_COLUMNS}`,
          [secretHash],
        );
        if (token === undefined || token.expires_at <= now) return undefined;
        const certificate = certificateFor(token);
        await tx.run("DELETE FROM trusted_certificates WHERE fingerprint = $1", [certificate.fingerprint]);
        await insertCertificate(tx, certificate);
        await notifyCredentialsChanged(tx);
        return { token, certificate };
      })
      .then((redeemed) => {
        if (redeemed !== undefined) this.#kept.forget();
        return redeemed;
      });
  }
}

export type { TrustedCertificateRecord, TrustTokenRecord };
