import { X509Certificate } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

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
 * Several berthd may start at once on one state directory: the first to
 * create `server.key` (a hard link, which fails when the name exists)
 * writes its certificate beside it; the others wait for that pair.
 */
export async function ensureServerCertificate(dir: string): Promise<ServerCertificate> {
  const certPath = join(dir, "server.crt");
  const keyPath = join(dir, "server.key");
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const now = new Date();
    // Loaded only to create one (its X.509 code cost every start ~170 ms of CPU and ~15 MiB).
    const { generate } = await import("selfsigned");
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
    const tmpKey = `${keyPath}.${process.pid}.tmp`;
    const tmpCert = `${certPath}.${process.pid}.tmp`;
    writeFileSync(tmpKey, generated.private, { mode: 0o600 });
    writeFileSync(tmpCert, generated.cert, { mode: 0o644 });
    let won = true;
    try {
      linkSync(tmpKey, keyPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      won = false;
    }
    if (won) renameSync(tmpCert, certPath);
    rmSync(tmpKey, { force: true });
    rmSync(tmpCert, { force: true });
    if (!won) await waitFor(certPath);
  }
  const cert = readFileSync(certPath, "utf8");
  return { cert, key: readFileSync(keyPath, "utf8"), fingerprint: fingerprintOf(new X509Certificate(cert)) };
}

/** Another berthd made the key: its certificate follows within moments. */
async function waitFor(path: string): Promise<void> {
  for (let waited = 0; !existsSync(path); waited += 50) {
    if (waited >= 10_000) throw new Error(`${path} did not appear: another berthd left its key without it`);
    await sleep(50);
  }
}
