import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";

export interface ServerCertificate {
  cert: string;
  key: string;
  /** LXD's fingerprint: hex SHA-256 of the DER. */
  fingerprint: string;
}

/** LXD's certificate fingerprint: lower-case hex SHA-256 of the DER, no colons. */
export function fingerprintOf(certificate: X509Certificate): string {
  return certificate.fingerprint256.replaceAll(":", "").toLowerCase();
}

/**
 * berthd's own HTTPS certificate, as LXD keeps `server.crt`/`server.key`
 * in its state directory: read from `dir`, or created there on first
 * start (self-signed ECDSA P-384, valid ten years, for the host's name,
 * `localhost` and the loopback addresses; key mode 0600). A client pins
 * it by fingerprint (`lxc remote add` checks the token's fingerprint).
 */
export async function ensureServerCertificate(dir: string): Promise<ServerCertificate> {
  const certPath = join(dir, "server.crt");
  const keyPath = join(dir, "server.key");
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const now = new Date();
    const generated = await generate([{ name: "commonName", value: `berth@${hostname()}` }], {
      keyType: "ec",
      curve: "P-384",
      algorithm: "sha384",
      notBeforeDate: now,
      notAfterDate: new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000),
      extensions: [
        { name: "basicConstraints", cA: false, critical: true },
        { name: "keyUsage", digitalSignature: true, critical: true },
        { name: "extKeyUsage", serverAuth: true },
        {
          name: "subjectAltName",
          altNames: [
            // Go's client checks the name against the pinned certificate's first DNS name.
            { type: 2, value: hostname() },
            { type: 2, value: "localhost" },
            { type: 7, ip: "127.0.0.1" },
            { type: 7, ip: "::1" },
          ],
        },
      ],
    });
    writeFileSync(keyPath, generated.private, { mode: 0o600 });
    writeFileSync(certPath, generated.cert, { mode: 0o644 });
  }
  const cert = readFileSync(certPath, "utf8");
  return { cert, key: readFileSync(keyPath, "utf8"), fingerprint: fingerprintOf(new X509Certificate(cert)) };
}
