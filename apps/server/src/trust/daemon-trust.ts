import { X509Certificate } from "node:crypto";
import { networkInterfaces } from "node:os";
import { ensureServerCertificate, fingerprintOf } from "./server-certificate.js";
import { Trust } from "./trust.js";
import type { TrustStore } from "./trust-store.js";

export interface DaemonTrust {
  tls: { cert: string | Buffer; key: string | Buffer } | undefined;
  trust: Trust;
}

/**
 * berthd's HTTPS setup: a given certificate (`--tls-cert`) wins; otherwise
 * berthd uses its own, made in the state directory on first start (as LXD
 * makes server.crt); `--state-dir none` leaves plain HTTP only. Whom it
 * trusts is in the database (`store`), shared by every server on it.
 */
export async function daemonTrust(options: {
  tls: { cert: Buffer; key: Buffer } | undefined;
  stateDir: string | undefined;
  store: TrustStore;
}): Promise<DaemonTrust> {
  const tls =
    options.tls ??
    (options.stateDir !== undefined ? await ensureServerCertificate(options.stateDir) : undefined);
  const serverFingerprint = tls === undefined ? "" : fingerprintOf(new X509Certificate(tls.cert));
  return { tls, trust: new Trust({ serverFingerprint, store: options.store }) };
}

/**
 * The addresses a trust token tells clients to try: the HTTPS listener's,
 * or every non-loopback interface address when it listens on a wildcard
 * (as LXD lists its addresses for `core.https_address` ":8443").
 */
export function advertisedAddresses(url: string): string[] {
  const { hostname, port } = new URL(url);
  if (hostname !== "0.0.0.0" && hostname !== "[::]") return [new URL(url).host];
  const out: string[] = [];
  for (const entries of Object.values(networkInterfaces()))
    for (const entry of entries ?? [])
      if (!entry.internal && (hostname === "[::]" || entry.family === "IPv4"))
        out.push(entry.family === "IPv6" ? `[${entry.address}]:${port}` : `${entry.address}:${port}`);
  return out;
}
