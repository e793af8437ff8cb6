/*
 * berthd's API tokens and trust store (tables `api_tokens`,
 * `trusted_certificates`, `trust_tokens`; statements in ../credentials) in
 * the store's own database, so every server on it knows the same
 * credentials at once; not part of the engine's Store port. Every request
 * looks its token or client certificate up, so answers are kept (`memo`)
 * as far as the adapter can tell they are current, and every write that
 * changes them is announced to the other servers and drops what was kept.
 */
import { type ApiTokenRecord, apiTokenRows } from "../credentials/api-tokens.js";
import { type TrustedCertificateRecord, type TrustTokenRecord, trustRows } from "../credentials/trust.js";
import type { SqlRunner } from "../runner/runner.js";
import type { ReadMemo, SqlTransactions } from "./transactions.js";

/** An adapter's transactions for the credential tables. */
export interface CredentialTables extends SqlTransactions {
  /** Tells every server, inside the writing transaction, that credentials changed. */
  announce(db: SqlRunner): Promise<void>;
}

/** A write that changes what requests are let in by: announced, and what was kept goes (committed or not). */
async function announced<T>(
  tables: CredentialTables,
  memo: ReadMemo,
  work: (db: SqlRunner) => Promise<T>,
  changed: (result: T) => boolean = () => true,
): Promise<T> {
  try {
    return await tables.write(async (db) => {
      const result = await work(db);
      if (changed(result)) await tables.announce(db);
      return result;
    });
  } finally {
    memo.forget();
  }
}

export class SqlTokenStore {
  constructor(
    private readonly tables: CredentialTables,
    private readonly memo: ReadMemo,
  ) {}

  /** Conflict when the name (or, absurdly, the hash) is taken. */
  create(record: ApiTokenRecord): Promise<void> {
    return announced(this.tables, this.memo, (db) => apiTokenRows.insert(db, record));
  }

  findByHash(hash: string): Promise<ApiTokenRecord | undefined> {
    return this.memo.get(`hash\u0000${hash}`, () => this.tables.read((db) => apiTokenRows.byHash(db, hash)));
  }

  /** In name order. */
  list(): Promise<ApiTokenRecord[]> {
    return this.memo.get("list", () => this.tables.read((db) => apiTokenRows.list(db)));
  }

  /** Replaces the projects of a restricted token (a project renamed or deleted); false when there is no such token. */
  setProjects(id: string, projects: string[]): Promise<boolean> {
    return announced(this.tables, this.memo, (db) => apiTokenRows.setProjects(db, id, projects));
  }

  /** By id or name; false when there was no such token. */
  delete(idOrName: string): Promise<boolean> {
    return announced(this.tables, this.memo, (db) => apiTokenRows.delete(db, idOrName));
  }
}

export class SqlTrustStore {
  constructor(
    private readonly tables: CredentialTables,
    private readonly memo: ReadMemo,
  ) {}

  /** In name order, then fingerprint. */
  listCertificates(): Promise<TrustedCertificateRecord[]> {
    return this.memo.get("certificates", () => this.tables.read((db) => trustRows.certificates(db)));
  }

  certificate(fingerprint: string): Promise<TrustedCertificateRecord | undefined> {
    return this.memo.get(`certificate\u0000${fingerprint}`, () =>
      this.tables.read((db) => trustRows.certificate(db, fingerprint)),
    );
  }

  /** Conflict (LXD's text) when the fingerprint is already trusted: two servers adding one at once, one gets it. */
  addCertificate(record: TrustedCertificateRecord): Promise<void> {
    return announced(this.tables, this.memo, (db) => trustRows.addCertificate(db, record));
  }

  /** False when no certificate has that fingerprint. */
  removeCertificate(fingerprint: string): Promise<boolean> {
    return announced(this.tables, this.memo, (db) => trustRows.removeCertificate(db, fingerprint));
  }

  /** Replaces a restricted certificate's projects (a project renamed or deleted); false when there is none. */
  setCertificateProjects(fingerprint: string, projects: string[]): Promise<boolean> {
    return announced(this.tables, this.memo, (db) =>
      trustRows.setCertificateProjects(db, fingerprint, projects),
    );
  }

  createToken(record: TrustTokenRecord): Promise<void> {
    return this.tables.write((db) => trustRows.createToken(db, record));
  }

  /** Replaces a pending token's projects (a project renamed or deleted); false when there is none. */
  setTokenProjects(id: string, projects: string[]): Promise<boolean> {
    return this.tables.write((db) => trustRows.setTokenProjects(db, id, projects));
  }

  /** The tokens not yet expired at `now` (ISO 8601), oldest first; expired ones are dropped. */
  listTokens(now: string): Promise<TrustTokenRecord[]> {
    return this.tables.write((db) => trustRows.liveTokens(db, now));
  }

  /** Revokes a pending token; false when there is none with that id. */
  cancelToken(id: string): Promise<boolean> {
    return this.tables.write((db) => trustRows.cancelToken(db, id));
  }

  /**
   * One write transaction (see `trustRows.redeemToken`), so two servers
   * cannot both redeem a token; announced only when a certificate is
   * trusted (wrong passwords change nothing to tell anyone).
   */
  redeemToken(
    secretHash: string,
    now: string,
    certificateFor: (token: TrustTokenRecord) => TrustedCertificateRecord,
  ): Promise<{ token: TrustTokenRecord; certificate: TrustedCertificateRecord } | undefined> {
    return announced(
      this.tables,
      this.memo,
      (db) => trustRows.redeemToken(db, secretHash, now, certificateFor),
      (redeemed) => redeemed !== undefined,
    );
  }
}
