import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@berth/adapter-sqlite";
import { afterAll, expect, it } from "vitest";
import { importLegacyTrustFile } from "./legacy-trust-file.js";

const dir = mkdtempSync(join(tmpdir(), "berth-legacy-trust-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (name: string, fingerprint: string) => ({
  name,
  type: "client",
  restricted: name === "ci",
  projects: name === "ci" ? ["team"] : [],
  certificate: `PEM of ${name}`,
  fingerprint,
});

it("moves an older berthd's trusted-certificates.json into the database once", async () => {
  const store = await openStore(join(dir, "berth.db"));
  try {
    const file = join(dir, "trusted-certificates.json");
    writeFileSync(
      file,
      JSON.stringify({ version: 1, certificates: [entry("alice", "fa"), entry("ci", "fc")] }),
    );
    await store.trust.addCertificate({ ...entry("alice", "fa"), created_at: "2026-11-01T00:00:00.000Z" });
    expect(await importLegacyTrustFile(store.trust, dir)).toBe(1);
    expect(await store.trust.certificate("fc")).toMatchObject({
      name: "ci",
      restricted: true,
      projects: ["team"],
    });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.imported`)).toBe(true);
    // A certificate removed later does not come back on the next start.
    await store.trust.removeCertificate("fc");
    expect(await importLegacyTrustFile(store.trust, dir)).toBe(0);
    expect(await store.trust.certificate("fc")).toBeUndefined();
    expect(await importLegacyTrustFile(store.trust, undefined)).toBe(0);
  } finally {
    await store.close();
  }
});
