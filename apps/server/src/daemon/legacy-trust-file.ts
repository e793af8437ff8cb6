import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { TrustedCertificate, TrustStore } from "../trust/trust-store.js";
import { importEach, markImported } from "./import-once.js";

/** What an older berthd kept in its state directory before trust moved into the database. */
interface LegacyTrustFile {
  version: 1;
  certificates: Omit<TrustedCertificate, "created_at">[];
}

/**
 * Moves the trusted certificates of an older berthd's
 * `STATE_DIR/trusted-certificates.json` into the database, once: each one
 * not trusted yet is added, then the file is renamed `.imported` so it is
 * never read again (a certificate removed later must not come back).
 * Several servers starting together are fine: a certificate already
 * trusted is skipped, and only one rename succeeds.
 */
export async function importLegacyTrustFile(
  store: TrustStore,
  stateDir: string | undefined,
): Promise<number> {
  const file = stateDir === undefined ? undefined : join(stateDir, "trusted-certificates.json");
  if (file === undefined || !existsSync(file)) return 0;
  const parsed = JSON.parse(readFileSync(file, "utf8")) as LegacyTrustFile;
  if (parsed.version !== 1 || !Array.isArray(parsed.certificates))
    throw new Error(`${file} is not a berth trusted-certificate file (version 1)`);
  const now = new Date().toISOString();
  const fresh: LegacyTrustFile["certificates"] = [];
  for (const certificate of parsed.certificates)
    if ((await store.certificate(certificate.fingerprint)) === undefined) fresh.push(certificate);
  const imported = await importEach(fresh, (certificate) =>
    store.addCertificate({ ...certificate, created_at: now }),
  );
  markImported(file);
  return imported;
}
