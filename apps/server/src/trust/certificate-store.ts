import { existsSync, readFileSync } from "node:fs";
import { writePrivateJson } from "../auth/private-json-file.js";

/** A trusted client certificate, as LXD's `api.Certificate` shows it. */
export interface TrustedCertificate {
  name: string;
  type: "client";
  restricted: boolean;
  /** Projects a restricted certificate may use. */
  projects: string[];
  /** PEM. */
  certificate: string;
  /** Hex SHA-256 of the DER. */
  fingerprint: string;
}

interface CertificateFile {
  version: 1;
  certificates: TrustedCertificate[];
}

/**
 * The trusted client certificates of one berthd. Kept in
 * `trusted-certificates.json` in the state directory beside `server.crt`
 * (mode 0600, written by atomic rename), or only in memory without one.
 * Certificates are public: nothing secret is stored.
 */
export class CertificateStore {
  #certificates: TrustedCertificate[];

  constructor(private readonly path: string | undefined) {
    this.#certificates = path !== undefined && existsSync(path) ? CertificateStore.#read(path) : [];
  }

  static #read(path: string): TrustedCertificate[] {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as CertificateFile;
    if (parsed.version !== 1 || !Array.isArray(parsed.certificates))
      throw new Error(`${path} is not a berth trusted-certificate file (version 1)`);
    return parsed.certificates;
  }

  list(): TrustedCertificate[] {
    return [...this.#certificates];
  }

  byFingerprint(fingerprint: string): TrustedCertificate | undefined {
    return this.#certificates.find((c) => c.fingerprint === fingerprint);
  }

  /** The certificates whose fingerprint starts with `prefix` (LXD accepts a unique prefix). */
  byPrefix(prefix: string): TrustedCertificate[] {
    return this.#certificates.filter((c) => c.fingerprint.startsWith(prefix.toLowerCase()));
  }

  add(certificate: TrustedCertificate): void {
    this.#save([...this.#certificates.filter((c) => c.fingerprint !== certificate.fingerprint), certificate]);
  }

  remove(fingerprint: string): void {
    this.#save(this.#certificates.filter((c) => c.fingerprint !== fingerprint));
  }

  #save(certificates: TrustedCertificate[]): void {
    if (this.path !== undefined) {
      const file: CertificateFile = { version: 1, certificates };
      writePrivateJson(this.path, file);
    }
    this.#certificates = certificates;
  }
}
