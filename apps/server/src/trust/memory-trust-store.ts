import { conflict } from "@berth/engine";
import { sameSecretHash } from "../auth/token-secret.js";
import type { PendingToken, TrustedCertificate, TrustStore } from "./trust-store.js";

/** Trust store for tests and embedders without a database; lives and dies with the process. */
export class MemoryTrustStore implements TrustStore {
  readonly #certificates = new Map<string, TrustedCertificate>();
  readonly #tokens = new Map<string, PendingToken>();

  async listCertificates(): Promise<TrustedCertificate[]> {
    return [...this.#certificates.values()]
      .sort((a, b) => a.name.localeCompare(b.name) || a.fingerprint.localeCompare(b.fingerprint))
      .map((c) => structuredClone(c));
  }

  async certificate(fingerprint: string): Promise<TrustedCertificate | undefined> {
    const found = this.#certificates.get(fingerprint);
    return found === undefined ? undefined : structuredClone(found);
  }

  async addCertificate(record: TrustedCertificate): Promise<void> {
    if (this.#certificates.has(record.fingerprint)) throw conflict("Certificate already in trust store");
    this.#certificates.set(record.fingerprint, structuredClone(record));
  }

  async removeCertificate(fingerprint: string): Promise<boolean> {
    return this.#certificates.delete(fingerprint);
  }

  async setCertificateProjects(fingerprint: string, projects: string[]): Promise<boolean> {
    const found = this.#certificates.get(fingerprint);
    if (found === undefined) return false;
    this.#certificates.set(fingerprint, { ...found, projects: [...projects] });
    return true;
  }

  async createToken(record: PendingToken): Promise<void> {
    this.#tokens.set(record.id, structuredClone(record));
  }

  async setTokenProjects(id: string, projects: string[]): Promise<boolean> {
    const found = this.#tokens.get(id);
    if (found === undefined) return false;
    this.#tokens.set(id, { ...found, projects: [...projects] });
    return true;
  }

  async listTokens(now: string): Promise<PendingToken[]> {
    for (const [id, token] of this.#tokens) if (token.expires_at <= now) this.#tokens.delete(id);
    return [...this.#tokens.values()].map((t) => structuredClone(t));
  }

  async cancelToken(id: string): Promise<boolean> {
    return this.#tokens.delete(id);
  }

  async redeemToken(
    secretHash: string,
    now: string,
    certificateFor: (token: PendingToken) => TrustedCertificate,
  ): Promise<{ token: PendingToken; certificate: TrustedCertificate } | undefined> {
    const token = [...this.#tokens.values()].find((t) => sameSecretHash(t.secret_hash, secretHash));
    if (token === undefined) return undefined;
    this.#tokens.delete(token.id);
    if (token.expires_at <= now) return undefined;
    const certificate = certificateFor(token);
    this.#certificates.set(certificate.fingerprint, structuredClone(certificate));
    return { token, certificate };
  }
}
