import {
  type SqlRunner,
  sqliteRunner,
  type TrustedCertificateRecord,
  type TrustTokenRecord,
  trustRows,
} from "@berth/sql-core";
import type { Connection } from "../connection/open-connection.js";
import { ReadCache } from "./read-cache.js";

/**
 * berthd's trust store in the store's own database (tables
 * `trusted_certificates` and `trust_tokens`, statements in @berth/sql-core),
 * on its connection: every server sharing the database trusts the same
 * certificates and can redeem, list or revoke any pending token. Like the
 * API tokens, not part of the engine's Store port. Every HTTPS request looks
 * its client certificate up: lookups are answered from memory while no
 * connection changed the database (ReadCache), so a certificate trusted or
 * removed through any server counts on the very next request.
 */
export class SqliteTrustStore {
  readonly #cache: ReadCache;

  constructor(private readonly connection: Connection) {
    this.#cache = new ReadCache(connection);
  }

  /** In name order, then fingerprint. */
  listCertificates(): Promise<TrustedCertificateRecord[]> {
    return this.#cache.get("certificates", () => this.read((db) => trustRows.certificates(db)));
  }

  /**
   * The trusted certificate with this fingerprint (a lookup on every HTTPS request), answered from
   * memory until any connection writes to the file.
   */
  certificate(fingerprint: string): Promise<TrustedCertificateRecord | undefined> {
    return this.#cache.get(`certificate\u0000${fingerprint}`, () =>
      this.read((db) => trustRows.certificate(db, fingerprint)),
    );
  }

  /** Conflict (LXD's text) when the fingerprint is already trusted. */
  addCertificate(record: TrustedCertificateRecord): Promise<void> {
    return this.written((db) => trustRows.addCertificate(db, record));
  }

  /** False when no certificate has that fingerprint. */
  removeCertificate(fingerprint: string): Promise<boolean> {
    return this.written((db) => trustRows.removeCertificate(db, fingerprint));
  }

  /** Replaces a restricted certificate's projects (a project renamed or deleted); false when there is none. */
  setCertificateProjects(fingerprint: string, projects: string[]): Promise<boolean> {
    return this.written((db) => trustRows.setCertificateProjects(db, fingerprint, projects));
  }

  /** Stores a pending certificate-add token (only its secret's hash). */
  createToken(record: TrustTokenRecord): Promise<void> {
    return this.written((db) => trustRows.createToken(db, record));
  }

  /** Replaces a pending token's projects (a project renamed or deleted); false when there is none. */
  setTokenProjects(id: string, projects: string[]): Promise<boolean> {
    return this.written((db) => trustRows.setTokenProjects(db, id, projects));
  }

  /** The tokens not yet expired at `now` (ISO 8601), oldest first; expired ones are dropped. */
  listTokens(now: string): Promise<TrustTokenRecord[]> {
    return this.written((db) => trustRows.liveTokens(db, now));
  }

  /** Revokes a pending token; false when there is none with that id. */
  cancelToken(id: string): Promise<boolean> {
    return this.written((db) => trustRows.cancelToken(db, id));
  }

  /** See `trustRows.redeemToken`: one write transaction. */
  redeemToken(
    secretHash: string,
    now: string,
    certificateFor: (token: TrustTokenRecord) => TrustedCertificateRecord,
  ): Promise<{ token: TrustTokenRecord; certificate: TrustedCertificateRecord } | undefined> {
    return this.written((db) => trustRows.redeemToken(db, secretHash, now, certificateFor));
  }

  private read<R>(work: (db: SqlRunner) => Promise<R>): Promise<R> {
    return this.connection.read((_db, raw) => work(sqliteRunner(raw)));
  }

  private async written<R>(work: (db: SqlRunner) => Promise<R>): Promise<R> {
    try {
      return await this.connection.write((_db, raw) => work(sqliteRunner(raw)));
    } finally {
      this.#cache.invalidate();
    }
  }
}

export type { TrustedCertificateRecord, TrustTokenRecord };
