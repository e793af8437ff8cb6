/*
 * berthd's trust store records (LXD's way of trusting clients over HTTPS),
 * as the SQLite and PostgreSQL stores keep them and berthd reads them.
 */

/** A trusted TLS client certificate: LXD's `api.Certificate` plus when it was added. */
export interface TrustedCertificateRecord {
  /** LXD's fingerprint: lower-case hex SHA-256 of the DER. */
  fingerprint: string;
  name: string;
  type: string;
  restricted: boolean;
  /** Projects a restricted certificate may use; empty otherwise. */
  projects: string[];
  /** PEM. */
  certificate: string;
  /** ISO 8601. */
  created_at: string;
}

/**
 * A pending certificate-add token (`lxc config trust add`); its id is its LXD operation's.
 * Only a hash of its secret is kept: the secret is shown once, in the answer that made it.
 */
export interface TrustTokenRecord {
  id: string;
  name: string;
  /** Lower-case hex SHA-256 of the secret (UTF-8). */
  secret_hash: string;
  restricted: boolean;
  projects: string[];
  /** ISO 8601. */
  created_at: string;
  /** ISO 8601: refused from then on. */
  expires_at: string;
}
