import { randomBytes, randomUUID, X509Certificate } from "node:crypto";
import { hashTokenSecret } from "../auth/token-secret.js";
import { fingerprintOf } from "./server-certificate.js";
import type { PendingToken, TrustedCertificate, TrustStore } from "./trust-store.js";

export const TRUST_TOKEN_LIFETIME_MS = 24 * 3600 * 1000;

/** What a certificate is trusted for: LXD's `CertificatesPost` name, restriction and projects. */
export interface TrustRequest {
  name: string;
  restricted: boolean;
  projects: string[];
}

/**
 * berthd's trust, the LXD way: the trusted client certificates and the
 * pending certificate-add tokens, both in the trust store (the database:
 * every server sharing it trusts the same clients). `serverFingerprint`
 * is berthd's own certificate's (empty without HTTPS); `addresses` are
 * the HTTPS addresses a token tells the client to try (`listen()` fills
 * them in).
 */
export class Trust {
  readonly store: TrustStore;
  readonly serverFingerprint: string;
  addresses: string[] = [];

  constructor(options: { serverFingerprint: string; store: TrustStore }) {
    this.serverFingerprint = options.serverFingerprint;
    this.store = options.store;
  }

  /**
   * A new certificate-add token and its secret. The store keeps only the secret's hash, so the
   * secret is in this answer only: the caller shows it once (LXD's 202 answer to `lxc config
   * trust add`), and no listing can show it again.
   */
  async createToken(
    request: TrustRequest,
    now = Date.now(),
  ): Promise<{ token: PendingToken; secret: string }> {
    const secret = randomBytes(32).toString("hex");
    const token: PendingToken = {
      id: randomUUID(),
      name: request.name,
      restricted: request.restricted,
      projects: [...request.projects],
      secret_hash: hashTokenSecret(secret),
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + TRUST_TOKEN_LIFETIME_MS).toISOString(),
    };
    await this.store.createToken(token);
    return { token, secret };
  }

  /**
   * Trusts `peerDer` under the token whose secret is `password` (LXD's
   * client sends the secret; the whole base64 token is accepted too). The
   * token is used up, whichever server made it. Undefined when no live
   * token matches.
   */
  async redeem(password: string, peerDer: Buffer): Promise<TrustedCertificate | undefined> {
    const now = new Date().toISOString();
    const redeemed = await this.store.redeemToken(hashTokenSecret(secretOf(password)), now, (token) =>
      trustedCertificateOf(peerDer, token, now),
    );
    return redeemed?.certificate;
  }

  /** The certificates whose fingerprint starts with `prefix` (LXD accepts a unique prefix). */
  async certificatesByPrefix(prefix: string): Promise<TrustedCertificate[]> {
    const lower = prefix.toLowerCase();
    return (await this.store.listCertificates()).filter((c) => c.fingerprint.startsWith(lower));
  }
}

/** LXD's token is base64 JSON holding the secret; a bare secret is also taken. */
function secretOf(password: string): string {
  try {
    const decoded = JSON.parse(Buffer.from(password, "base64").toString("utf8")) as { secret?: unknown };
    if (typeof decoded.secret === "string") return decoded.secret;
  } catch {
    // not a token: the secret itself
  }
  return password;
}

/** A certificate given as DER bytes, PEM text or base64 DER (LXD's `certificate` field). */
export function parseCertificate(input: Buffer | string): X509Certificate {
  if (typeof input === "string" && !input.includes("-----BEGIN"))
    return new X509Certificate(Buffer.from(input, "base64"));
  return new X509Certificate(input);
}

export function trustedCertificateOf(
  input: Buffer | string,
  request: TrustRequest,
  now = new Date().toISOString(),
): TrustedCertificate {
  const x509 = parseCertificate(input);
  return {
    fingerprint: fingerprintOf(x509),
    name: request.name,
    type: "client",
    restricted: request.restricted,
    projects: request.restricted ? [...request.projects] : [],
    certificate: x509.toString(),
    created_at: now,
  };
}
