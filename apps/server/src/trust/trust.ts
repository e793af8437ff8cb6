import { randomBytes, X509Certificate } from "node:crypto";
import { CertificateStore, type TrustedCertificate } from "./certificate-store.js";
import { fingerprintOf } from "./server-certificate.js";

/** What `lxc config trust add` asked for; kept until a client redeems the token. */
export interface PendingToken {
  name: string;
  restricted: boolean;
  projects: string[];
  secret: string;
  expiresAt: number;
}

export const TRUST_TOKEN_LIFETIME_MS = 24 * 3600 * 1000;

/**
 * berthd's trust, the LXD way: the trusted client certificates, and the
 * pending certificate-add tokens (in this process's memory, like LXD's
 * token operations, and forgotten after a day). `addresses` are the HTTPS
 * addresses a token tells the client to try; `listen()` fills them in.
 */
export class Trust {
  readonly certificates: CertificateStore;
  readonly serverFingerprint: string;
  addresses: string[] = [];
  readonly #pending = new Map<string, PendingToken>();

  constructor(options: { serverFingerprint: string; storePath?: string | undefined }) {
    this.serverFingerprint = options.serverFingerprint;
    this.certificates = new CertificateStore(options.storePath);
  }

  createToken(request: { name: string; restricted: boolean; projects: string[] }): PendingToken {
    const token: PendingToken = {
      ...request,
      secret: randomBytes(32).toString("hex"),
      expiresAt: Date.now() + TRUST_TOKEN_LIFETIME_MS,
    };
    this.#pending.set(token.secret, token);
    return token;
  }

  /**
   * Trusts `peerDer` under the token whose secret is `password` (LXD's
   * client sends the secret; the whole base64 token is accepted too). The
   * token is used up. Undefined when no live token matches.
   */
  redeem(password: string, peerDer: Buffer): TrustedCertificate | undefined {
    const secret = secretOf(password);
    const token = this.#pending.get(secret);
    if (token === undefined) return undefined;
    this.#pending.delete(secret);
    if (token.expiresAt < Date.now()) return undefined;
    const certificate = trustedCertificateOf(peerDer, token);
    this.certificates.add(certificate);
    return certificate;
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
  request: { name: string; restricted: boolean; projects: string[] },
): TrustedCertificate {
  const x509 = parseCertificate(input);
  return {
    name: request.name,
    type: "client",
    restricted: request.restricted,
    projects: request.restricted ? [...request.projects] : [],
    certificate: x509.toString(),
    fingerprint: fingerprintOf(x509),
  };
}
