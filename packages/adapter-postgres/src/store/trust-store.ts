/**
 * berthd's trust store in the PostgreSQL database (tables
 * `trusted_certificates` and `trust_tokens`): every server on it trusts
 * the same client certificates at once and can redeem, list or revoke any
 * pending certificate-add token. Same records and errors as the SQLite
 * store's `SqliteTrustStore`; not part of the engine's Store port.
 */
import type { TrustedCertificateRecord, TrustTokenRecord } from "@berth/api-types";
import { conflict } from "@berth/engine";
import type { Pools, Tx } from "../connection/pools.js";

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
  constructor(private readonly pools: Pools) {}

  /** In name order, then fingerprint. */
  listCertificates(): Promise<TrustedCertificateRecord[]> {
    return this.pools.query<TrustedCertificateRecord>(
      `SELECT ${CERTIFICATE_COLUMNS} FROM trusted_certificates ORDER BY name, fingerprint`,
    );
  }

  async certificate(fingerprint: string): Promise<TrustedCertificateRecord | undefined> {
    const [row] = await this.pools.query<TrustedCertificateRecord>(
      `SELECT ${CERTIFICATE_COLUMNS} FROM trusted_certificates WHERE fingerprint = $1`,
      [fingerprint],
    );
    return row;
  }

  /** Two servers adding the same certificate at once: one adds it, the other gets the conflict. */
  addCertificate(record: TrustedCertificateRecord): Promise<void> {
    return this.pools.writeTx(async (tx) => {
      if (!(await insertCertificate(tx, record))) throw conflict("Certificate already in trust store");
    });
  }

  removeCertificate(fingerprint: string): Promise<boolean> {
    return this.pools.writeTx(
      async (tx) =>
        (await tx.run("DELETE FROM trusted_certificates WHERE fingerprint = $1", [fingerprint])) > 0,
    );
  }

  setCertificateProjects(fingerprint: string, projects: string[]): Promise<boolean> {
    return this.pools.writeTx(
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
    return this.pools.writeTx(async (tx) => {
      const [token] = await tx.rows<TrustTokenRecord>(
        `DELETE FROM trust_tokens WHERE secret_hash = $1 RETURNING ${TOKEN_COLUMNS}`,
        [secretHash],
      );
      if (token === undefined || token.expires_at <= now) return undefined;
      const certificate = certificateFor(token);
      await tx.run("DELETE FROM trusted_certificates WHERE fingerprint = $1", [certificate.fingerprint]);
      await insertCertificate(tx, certificate);
      return { token, certificate };
    });
  }
}

export type { TrustedCertificateRecord, TrustTokenRecord };
