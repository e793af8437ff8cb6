/**
 * The trust store on PostgreSQL from two stores (two berthd servers) on
 * one database: certificates and tokens written through one are seen by
 * the other, and a token redeemed by both at once is redeemed once;
 * certificate lookups are kept in memory and follow changes through the
 * other server's notification.
 */
import { EngineError } from "@berth/engine";
import { createTestDatabase } from "@berth/postgres-test-server";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { TrustedCertificateRecord } from "../index.js";
import { openPostgresStore } from "../open-store.js";
import type { PostgresStore } from "./postgres-store.js";

const unavailable = inject("postgresUnavailable");
let stores: PostgresStore[] = [];
let url = "";
beforeAll(async () => {
  if (unavailable !== "") return;
  url = await createTestDatabase(inject("postgresAdminUrl"));
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
    // The other server follows once the notification reaches it (it may have kept f1's answer).
    expect(await first.trust.setCertificateProjects("f1", ["renamed"])).toBe(true);
    await expect.poll(async () => (await second.trust.certificate("f1"))?.projects).toEqual(["renamed"]);
    expect(await first.trust.setCertificateProjects("nope", [])).toBe(false);
    expect(await first.trust.removeCertificate("f1")).toBe(true);
    expect(await first.trust.certificate("f1")).toBeUndefined();
    await expect.poll(() => second.trust.certificate("f1")).toBeUndefined();
  },
);

it.skipIf(unavailable !== "")(
  `client-certificate lookups are kept in memory; a certificate removed through one server is refused by the other${unavailable === "" ? "" : ` (skipped: ${unavailable})`}`,
  async () => {
    const [first, second] = stores as [PostgresStore, PostgresStore];
    await expect.poll(() => first.listening && second.listening).toBe(true);
    await first.trust.addCertificate(certificate("kept", "fk"));
    // A change behind the stores' backs (no notification): the second server answers from memory,
    // without a read per request. (A notification of the add still on its way drops what it kept:
    // then it is tried again.)
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let answered: string | undefined;
    try {
      for (let attempt = 0; attempt < 20 && answered !== "kept"; attempt++) {
        await client.query("UPDATE trusted_certificates SET name = 'kept' WHERE fingerprint = 'fk'");
        expect((await second.trust.certificate("fk"))?.name).toBe("kept");
        await client.query(
          "UPDATE trusted_certificates SET name = 'changed behind' WHERE fingerprint = 'fk'",
        );
        answered = (await second.trust.certificate("fk"))?.name;
      }
    } finally {
      await client.end();
    }
    expect(answered).toBe("kept");
    // Removed through the first server: refused there at once, and by the second once told.
    expect(await first.trust.removeCertificate("fk")).toBe(true);
    expect(await first.trust.certificate("fk")).toBeUndefined();
    await expect.poll(() => second.trust.certificate("fk"), { timeout: 5_000 }).toBeUndefined();
    // An unknown certificate's answer is kept too, and dropped when one is trusted anywhere.
    expect(await second.trust.certificate("fn")).toBeUndefined();
    await first.trust.addCertificate(certificate("new", "fn"));
    await expect
      .poll(async () => (await second.trust.certificate("fn"))?.name, { timeout: 5_000 })
      .toBe("new");
  },
);
