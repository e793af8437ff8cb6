import type { TrustedCertificateRecord, TrustTokenRecord } from "@berth/api-types";
import { conflict } from "@berth/engine";
import type { Row } from "@libsql/client";
import type { Connection, Work } from "../connection/open-connection.js";
import { ReadCache } from "./read-cache.js";

const CERTIFICATE_COLUMNS = "fingerprint, name, type, restricted, projects, certificate, created_at";
const TOKEN_COLUMNS = "id, name, secret_hash, restricted, projects, created_at, expires_at";

function certificateOf(row: Row): TrustedCertificateRecord {
  return {
    fingerprint: String(row.fingerprint),
    name: String(row.name),
    type: String(row.type),
    restricted: Number(row.restricted) === 1,
    projects: JSON.parse(String(row.projects)) as string[],
    certificate: String(row.certificate),
    created_at: String(row.created_at),
  };
}

function tokenOf(row: Row): TrustTokenRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    secret_hash: String(row.secret_hash),
    restricted: Number(row.restricted) === 1,
    projects: JSON.parse(String(row.projects)) as string[],
    created_at: String(row.created_at),
    expires_at: String(row.expires_at),
  };
}

/**
 * berthd's trust store in the store's own database (tables
 * `trusted_certificates` and `trust_tokens`), on its connection: every
 * server sharing the database trusts the same certificates and can
 * redeem, list or revoke any pending token. Like the API tokens, not part
 * of the engine's Store port. Every HTTPS request looks its client
 * certificate up: lookups are answered from memory while no connection
 * changed the database (ReadCache), so a certificate trusted or removed
 * through any server counts on the very next request.
 */
export class SqliteTrustStore {
  readonly #cache: ReadCache;

  constructor(private readonly connection: Connection) {
    this.#cache = new ReadCache(connection);
  }

  /** In name order, then fingerprint. */
  listCertificates(): Promise<TrustedCertificateRecord[]> {
    return this.#cache.get("certificates", () =>
      this.connection.read(async (_db, raw) =>
        (
          await raw.rows(`SELECT ${CERTIFICATE_COLUMNS} FROM trusted_certificates ORDER BY name, fingerprint`)
        ).map(certificateOf),
      ),
    );
  }

  certificate(fingerprint: string): Promise<TrustedCertificateRecord | undefined> {
    return this.#cache.get(`certificate\u0000${fingerprint}`, () =>
      this.connection.read(async (_db, raw) => {
        const [row] = await raw.rows(
          `SELECT ${CERTIFICATE_COLUMNS} FROM trusted_certificates WHERE fingerprint = ?`,
          [fingerprint],
        );
        return row === undefined ? undefined : certificateOf(row);
      }),
    );
  }

  /** Conflict (LXD's text) when the fingerprint is already trusted. */
  addCertificate(record: TrustedCertificateRecord): Promise<void> {
    return this.written(async (_db, raw) => {
      const [taken] = await raw.rows("SELECT 1 FROM trusted_certificates WHERE fingerprint = ?", [
        record.fingerprint,
      ]);
      if (taken !== undefined) throw conflict("Certificate already in trust store");
      await insertCertificate(raw, record);
    });
  }

  /** False when no certificate has that fingerprint. */
  removeCertificate(fingerprint: string): Promise<boolean> {
    return this.written(
      async (_db, raw) =>
        (await raw.run("DELETE FROM trusted_certificates WHERE fingerprint = ?", [fingerprint])) > 0,
    );
  }

  /** Replaces a restricted certificate's projects (a project renamed or deleted); false when there is none. */
  setCertificateProjects(fingerprint: string, projects: string[]): Promise<boolean> {
    return this.written(
      async (_db, raw) =>
        (await raw.run("UPDATE trusted_certificates SET projects = ? WHERE fingerprint = ?", [
          JSON.stringify(projects),
          fingerprint,
        ])) > 0,
    );
  }

  createToken(record: TrustTokenRecord): Promise<void> {
    return this.written(async (_db, raw) => {
      await raw.run(`INSERT INTO trust_tokens (${TOKEN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
        record.id,
        record.name,
        record.secret_hash,
        record.restricted ? 1 : 0,
        JSON.stringify(record.projects),
        record.created_at,
        record.expires_at,
      ]);
    });
  }

  /** Replaces a pending token's projects (a project renamed or deleted); false when there is none. */
  setTokenProjects(id: string, projects: string[]): Promise<boolean> {
    return this.written(
      async (_db, raw) =>
        (await raw.run("UPDATE trust_tokens SET projects = ? WHERE id = ?", [JSON.stringify(projects), id])) >
        0,
    );
  }

  /** The tokens not yet expired at `now` (ISO 8601), oldest first; expired ones are dropped. */
  listTokens(now: string): Promise<TrustTokenRecord[]> {
    return this.written(async (_db, raw) => {
      await raw.run("DELETE FROM trust_tokens WHERE expires_at <= ?", [now]);
      return (await raw.rows(`SELECT ${TOKEN_COLUMNS} FROM trust_tokens ORDER BY created_at, id`)).map(
        tokenOf,
      );
    });
  }

  /** Revokes a pending token; false when there is none with that id. */
  cancelToken(id: string): Promise<boolean> {
    return this.written(
      async (_db, raw) => (await raw.run("DELETE FROM trust_tokens WHERE id = ?", [id])) > 0,
    );
  }

  /**
   * Uses up the token whose secret hashes to `secretHash` and, when it had not
   * expired at `now`, trusts the certificate `certificateFor` builds from
   * it, in one transaction: two servers redeeming the same token at once
   * cannot both succeed. Undefined when no live token matches.
   */
  redeemToken(
    secretHash: string,
    now: string,
    certificateFor: (token: TrustTokenRecord) => TrustedCertificateRecord,
  ): Promise<{ token: TrustTokenRecord; certificate: TrustedCertificateRecord } | undefined> {
    return this.written(async (_db, raw) => {
      const [row] = await raw.rows(`SELECT ${TOKEN_COLUMNS} FROM trust_tokens WHERE secret_hash = ?`, [
        secretHash,
      ]);
      if (row === undefined) return undefined;
      const token = tokenOf(row);
      await raw.run("DELETE FROM trust_tokens WHERE id = ?", [token.id]);
      if (token.expires_at <= now) return undefined;
      const certificate = certificateFor(token);
      await raw.run("DELETE FROM trusted_certificates WHERE fingerprint = ?", [certificate.fingerprint]);
      await insertCertificate(raw, certificate);
      return { token, certificate };
    });
  }

  private async written<R>(work: Work<R>): Promise<R> {
    try {
      return await this.connection.write(work);
    } finally {
      this.#cache.invalidate();
    }
  }
}

async function insertCertificate(
  raw: Parameters<Work<void>>[1],
  record: TrustedCertificateRecord,
): Promise<void> {
  await raw.run(`INSERT INTO trusted_certificates (${CERTIFICATE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`, [
    record.fingerprint,
    record.name,
    record.type,
    record.restricted ? 1 : 0,
    JSON.stringify(record.projects),
    record.certificate,
    record.created_at,
  ]);
}

export type { TrustedCertificateRecord, TrustTokenRecord };
