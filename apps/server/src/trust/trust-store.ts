import type { TrustedCertificateRecord, TrustTokenRecord } from "@berth/api-types";

/** A trusted TLS client certificate, as kept (LXD's `api.Certificate` plus when it was added). */
export type TrustedCertificate = TrustedCertificateRecord;

/** What `lxc config trust add` asked for, until a client redeems it; `id` is its LXD operation's. */
export type PendingToken = TrustTokenRecord;

/**
 * Where berthd keeps whom it trusts: the database's `trusted_certificates`
 * and `trust_tokens` tables (`@berth/adapter-sqlite`, `@berth/adapter-postgres`),
 * so every server sharing the database trusts the same clients and can
 * redeem, list or revoke any token; or memory (`MemoryTrustStore`).
 */
export interface TrustStore {
  listCertificates(): Promise<TrustedCertificate[]>;
  certificate(fingerprint: string): Promise<TrustedCertificate | undefined>;
  /** Conflict "Certificate already in trust store" when the fingerprint is trusted already. */
  addCertificate(record: TrustedCertificate): Promise<void>;
  removeCertificate(fingerprint: string): Promise<boolean>;
  /** Replaces a restricted certificate's projects (a project renamed or deleted); false when there is none. */
  setCertificateProjects(fingerprint: string, projects: string[]): Promise<boolean>;
  createToken(record: PendingToken): Promise<void>;
  /** Replaces a pending token's projects (a project renamed or deleted); false when there is none. */
  setTokenProjects(id: string, projects: string[]): Promise<boolean>;
  /** Tokens not expired at `now` (ISO 8601), oldest first. */
  listTokens(now: string): Promise<PendingToken[]>;
  cancelToken(id: string): Promise<boolean>;
  /**
   * Uses up the token whose secret hashes to `secretHash` (`hashTokenSecret`) and trusts what
   * `certificateFor` builds from it, atomically; undefined when no live token matches.
   */
  redeemToken(
    secretHash: string,
    now: string,
    certificateFor: (token: PendingToken) => TrustedCertificate,
  ): Promise<{ token: PendingToken; certificate: TrustedCertificate } | undefined>;
}
