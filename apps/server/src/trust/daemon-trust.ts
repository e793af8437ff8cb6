import { X509Certificate } from "node:crypto";
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { ensureServerCertificate, fingerprintOf } from "./server-certificate.js";
import { Trust } from "./trust.js";

export interface DaemonTrust {
  tls: { cert: string | Buffer; key: string | Buffer } | undefined;
  trust: Trust | undefined;
}

/**
 * berthd's HTTPS setup: a given certificate (`--tls-cert`) wins; otherwise
 * with a state directory berthd uses its own, created there on first start.
 * Client certificates can be trusted whenever berthd speaks HTTPS; the trust
 * store is a file in the state directory (memory only without one).
 */
export async function daemonTrust(options: {
  tls: { cert: Buffer; key: Buffer } | undefined;
  stateDir: string | undefined;
}): Promise<DaemonTrust> {
  const tls =
    options.tls ??
    (options.stateDir !== undefined ? await ensureServerCertificate(options.stateDir) : undefined);
  if (tls === undefined) return { tls: undefined, trust: undefined };
  const trust = new Trust({
    serverFingerprint: fingerprintOf(new X509Certificate(tls.cert)),
    storePath:
      options.stateDir !== undefined ? join(options.stateDir, "trusted-certificates.json") : undefined,
  });
  return { tls, trust };
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
