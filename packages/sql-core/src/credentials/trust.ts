import type { TrustedCertificateRecord, TrustTokenRecord } from "@berth/api-types";
import { conflict } from "@berth/engine";
import { first, type SqlParam, type SqlRow, type SqlRunner } from "../runner/runner.js";
import { boolValue, jsonParam, jsonValue } from "../runner/values.js";

const CERTIFICATE_COLUMNS = "fingerprint, name, type, restricted, projects, certificate, created_at";
const TOKEN_COLUMNS = "id, name, secret_hash, restricted, projects, created_at, expires_at";

/** A record whose fields are its `columns`: `restricted` a boolean, `projects` JSON, the others text. */
function recordOf<T>(columns: string, row: SqlRow): T {
  const record: Record<string, unknown> = {};
  for (const column of columns.split(", ")) {
    const value = row[column];
    record[column] =
      column === "restricted" ? boolValue(value) : column === "projects" ? jsonValue(value) : String(value);
  }
  return record as T;
}

/** A record's values in `columns` order, to bind (`projects` as JSON). */
function paramsOf(columns: string, record: object): SqlParam[] {
  const values = record as Record<string, SqlParam>;
  return columns
    .split(", ")
    .map((column) => (column === "projects" ? jsonParam(values[column]) : values[column]!));
}

const certificateOf = (row: SqlRow) => recordOf<TrustedCertificateRecord>(CERTIFICATE_COLUMNS, row);
const tokenOf = (row: SqlRow) => recordOf<TrustTokenRecord>(TOKEN_COLUMNS, row);

/** Whether the row went in (false: the fingerprint is trusted already; two adders cannot both win). */
async function insertCertificate(db: SqlRunner, record: TrustedCertificateRecord): Promise<boolean> {
  const inserted = await db.run(
    `INSERT INTO trusted_certificates (${CERTIFICATE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (fingerprint) DO NOTHING`,
    paramsOf(CERTIFICATE_COLUMNS, record),
  );
  return inserted > 0;
}

/**
 * The statements of berthd's trust store, the LXD way (tables
 * `trusted_certificates` and `trust_tokens`). Adapters run them in their
 * own transactions and keep their own caches of certificate lookups.
 */
export const trustRows = {
  /** In name order, then fingerprint. */
  async certificates(db: SqlRunner): Promise<TrustedCertificateRecord[]> {
    return (
      await db.all(`SELECT ${CERTIFICATE_COLUMNS} FROM trusted_certificates ORDER BY name, fingerprint`)
    ).map(certificateOf);
  },

  async certificate(db: SqlRunner, fingerprint: string): Promise<TrustedCertificateRecord | undefined> {
    const row = await first(
      db,
      `SELECT ${CERTIFICATE_COLUMNS} FROM trusted_certificates WHERE fingerprint = ?`,
      [fingerprint],
    );
    return row === undefined ? undefined : certificateOf(row);
  },

  /** Conflict (LXD's text) when the fingerprint is already trusted. */
  async addCertificate(db: SqlRunner, record: TrustedCertificateRecord): Promise<void> {
    if (!(await insertCertificate(db, record))) throw conflict("Certificate already in trust store");
  },

  /** False when no certificate has that fingerprint. */
  async removeCertificate(db: SqlRunner, fingerprint: string): Promise<boolean> {
    return (await db.run("DELETE FROM trusted_certificates WHERE fingerprint = ?", [fingerprint])) > 0;
  },

  /** Replaces a restricted certificate's projects (a project renamed or deleted); false when there is none. */
  async setCertificateProjects(db: SqlRunner, fingerprint: string, projects: string[]): Promise<boolean> {
    return (
      (await db.run("UPDATE trusted_certificates SET projects = ? WHERE fingerprint = ?", [
        jsonParam(projects),
        fingerprint,
      ])) > 0
    );
  },

  /** A pending token's projects follow a project renamed or deleted; false when there is none. */
  async setTokenProjects(db: SqlRunner, id: string, projects: string[]): Promise<boolean> {
    return (await db.run("UPDATE trust_tokens SET projects = ? WHERE id = ?", [jsonParam(projects), id])) > 0;
  },

  async createToken(db: SqlRunner, record: TrustTokenRecord): Promise<void> {
    await db.run(
      `INSERT INTO trust_tokens (${TOKEN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      paramsOf(TOKEN_COLUMNS, record),
    );
  },

  /** The tokens not yet expired at `now` (ISO 8601), oldest first; expired ones are dropped. */
  async liveTokens(db: SqlRunner, now: string): Promise<TrustTokenRecord[]> {
    await db.run("DELETE FROM trust_tokens WHERE expires_at <= ?", [now]);
    return (await db.all(`SELECT ${TOKEN_COLUMNS} FROM trust_tokens ORDER BY created_at, id`)).map(tokenOf);
  },

  /** Revokes a pending token; false when there is none with that id. */
  async cancelToken(db: SqlRunner, id: string): Promise<boolean> {
    return (await db.run("DELETE FROM trust_tokens WHERE id = ?", [id])) > 0;
  },

  /**
   * Uses up the token whose secret hashes to `secretHash` (deleted with
   * RETURNING, so two servers redeeming it at once cannot both get it) and,
   * when it had not expired at `now`, trusts the certificate
   * `certificateFor` builds from it. Undefined when no live token matches.
   * One transaction: the caller's.
   */
  async redeemToken(
    db: SqlRunner,
    secretHash: string,
    now: string,
    certificateFor: (token: TrustTokenRecord) => TrustedCertificateRecord,
  ): Promise<{ token: TrustTokenRecord; certificate: TrustedCertificateRecord } | undefined> {
    const row = await first(db, `DELETE FROM trust_tokens WHERE secret_hash = ? RETURNING ${TOKEN_COLUMNS}`, [
      secretHash,
    ]);
    if (row === undefined) return undefined;
    const token = tokenOf(row);
    if (token.expires_at <= now) return undefined;
    const certificate = certificateFor(token);
    await db.run("DELETE FROM trusted_certificates WHERE fingerprint = ?", [certificate.fingerprint]);
    await insertCertificate(db, certificate);
    return { token, certificate };
  },
};

export type { TrustedCertificateRecord, TrustTokenRecord };
