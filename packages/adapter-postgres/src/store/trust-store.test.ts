/**
 * The trust store on PostgreSQL from two stores (two berthd servers) on
 * one database: certificates and tokens written through one are seen by
 * the other, and a token redeemed by both at once is redeemed once.
 */
import { EngineError } from "@berth/engine";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { openPostgresStore } from "../open-store.js";
import { createTestDatabase } from "../testing/databases.js";
import type { PostgresStore } from "./postgres-store.js";
import type { TrustedCertificateRecord } from "./trust-store.js";

const unavailable = inject("postgresUnavailable");
let stores: PostgresStore[] = [];
beforeAll(async () => {
  if (unavailable !== "") return;
  const url = await createTestDatabase(inject("postgresAdminUrl"));
  stores = [await openPostgresStore(url), await openPostgresStore(url)];
});
afterAll(async () => {
  for (const store of stores) await store.close();
});

const NOW = "2026-11-24T12:00:00.000Z";
const certificate = (name: string, fingerprint: string): TrustedCertificateRecord => ({
  fingerprint,
  name,
  type: "client",
  restricted: true,
  projects: ["team"],
  certificate: `PEM of ${name}`,
  created_at: NOW,
});

it.skipIf(unavailable !== "")(
  `trust store shared by two stores on PostgreSQL${unavailable === "" ? "" : ` (skipped: ${unavailable})`}`,
  async () => {
    const [first, second] = stores as [PostgresStore, PostgresStore];
    await first.trust.addCertificate(certificate("ci", "f1"));
    expect(await second.trust.certificate("f1")).toEqual(certificate("ci", "f1"));
    const again = await second.trust.addCertificate(certificate("ci2", "f1")).catch((e: unknown) => e);
    expect((again as EngineError).message).toBe("Certificate already in trust store");
    expect(again).toBeInstanceOf(EngineError);
    for (const id of ["t1", "t2"])
      await first.trust.createToken({
        id,
        name: `client-${id}`,
        secret_hash: `hash-${id}`,
        restricted: false,
        projects: [],
        created_at: NOW,
        expires_at: id === "t1" ? "2026-11-25T00:00:00.000Z" : "2026-11-24T06:00:00.000Z",
      });
    // The expired one is dropped.
    expect((await second.trust.listTokens(NOW)).map((t) => t.id)).toEqual(["t1"]);
    const results = await Promise.all([
      first.trust.redeemToken("hash-t1", NOW, (t) => certificate(t.name, "f2")),
      second.trust.redeemToken("hash-t1", NOW, (t) => certificate(t.name, "f2")),
    ]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect((await second.trust.listCertificates()).map((c) => c.name)).toEqual(["ci", "client-t1"]);
    expect(await second.trust.cancelToken("t1")).toBe(false);
    expect(await first.trust.setCertificateProjects("f1", ["renamed"])).toBe(true);
    expect((await second.trust.certificate("f1"))?.projects).toEqual(["renamed"]);
    expect(await first.trust.setCertificateProjects("nope", [])).toBe(false);
    expect(await first.trust.removeCertificate("f1")).toBe(true);
    expect(await second.trust.certificate("f1")).toBeUndefined();
  },
);
