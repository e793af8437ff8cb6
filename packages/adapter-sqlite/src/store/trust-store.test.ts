import { EngineError } from "@berth/engine";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../../test-support/temp-dir.fixture.js";
import type { TrustedCertificateRecord, TrustTokenRecord } from "../index.js";
import { openStore } from "../open-store.js";

const dir = makeTempDir();
afterAll(() => dir.remove());

const certificate = (name: string, fingerprint: string): TrustedCertificateRecord => ({
  fingerprint,
  name,
  type: "client",
  restricted: name === "ci",
  projects: name === "ci" ? ["team"] : [],
  certificate: `PEM of ${name}`,
  created_at: "2026-11-24T00:00:00.000Z",
});

const token = (id: string, expires_at = "2026-11-25T00:00:00.000Z"): TrustTokenRecord => ({
  id,
  name: `client-${id}`,
  secret_hash: `hash-${id}`,
  restricted: false,
  projects: [],
  created_at: `2026-11-24T00:00:0${id.length}.000Z`,
  expires_at,
});

const NOW = "2026-11-24T12:00:00.000Z";

describe("SqliteTrustStore", () => {
  it("adds, finds, lists in name order and removes certificates; a fingerprint is trusted once", async () => {
    const store = await openStore(":memory:");
    await store.trust.addCertificate(certificate("zed", "f2"));
    await store.trust.addCertificate(certificate("ci", "f1"));
    expect(await store.trust.certificate("f1")).toEqual(certificate("ci", "f1"));
    expect(await store.trust.certificate("nope")).toBeUndefined();
    expect((await store.trust.listCertificates()).map((c) => c.name)).toEqual(["ci", "zed"]);
    const again = await store.trust.addCertificate(certificate("other", "f2")).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(EngineError);
    expect((again as EngineError).message).toBe("Certificate already in trust store");
    expect(await store.trust.removeCertificate("f2")).toBe(true);
    expect(await store.trust.removeCertificate("f2")).toBe(false);
    expect(await store.trust.certificate("f2")).toBeUndefined();
    await store.close();
  });

  it("keeps tokens until they expire, are cancelled or redeemed once", async () => {
    const store = await openStore(":memory:");
    await store.trust.createToken(token("a"));
    await store.trust.createToken(token("bb"));
    await store.trust.createToken(token("ccc", "2026-11-24T06:00:00.000Z"));
    // The expired one is gone from the list (and from the table).
    expect((await store.trust.listTokens(NOW)).map((t) => t.id)).toEqual(["a", "bb"]);
    expect(
      await store.trust.redeemToken("hash-ccc", "2026-11-24T01:00:00.000Z", () => certificate("x", "fx")),
    ).toBe(undefined);
    expect(await store.trust.cancelToken("bb")).toBe(true);
    expect(await store.trust.cancelToken("bb")).toBe(false);
    expect(await store.trust.redeemToken("hash-bb", NOW, () => certificate("x", "fx"))).toBeUndefined();
    const redeemed = await store.trust.redeemToken("hash-a", NOW, (t) => certificate(t.name, "fa"));
    expect(redeemed?.certificate).toEqual(certificate("client-a", "fa"));
    expect(await store.trust.certificate("fa")).toEqual(certificate("client-a", "fa"));
    expect(await store.trust.redeemToken("hash-a", NOW, () => certificate("y", "fy"))).toBeUndefined();
    expect(await store.trust.listTokens(NOW)).toEqual([]);
    // An expired token is used up even when it cannot be redeemed.
    await store.trust.createToken(token("d", "2026-11-24T06:00:00.000Z"));
    expect(await store.trust.redeemToken("hash-d", NOW, () => certificate("z", "fz"))).toBeUndefined();
    expect(await store.trust.certificate("fz")).toBeUndefined();
    await store.close();
  });

  it("two servers on one file: a token is redeemed once, and each sees the other's certificates at once", async () => {
    const file = dir.file("trust.db");
    const first = await openStore(file);
    const second = await openStore(file);
    await first.trust.createToken(token("t"));
    expect(await second.trust.certificate("ft")).toBeUndefined();
    const results = await Promise.all([
      first.trust.redeemToken("hash-t", NOW, () => certificate("one", "ft")),
      second.trust.redeemToken("hash-t", NOW, () => certificate("two", "ft")),
    ]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    // The second one's cached "not trusted" answer is not kept after the first one's write.
    expect((await second.trust.certificate("ft"))?.fingerprint).toBe("ft");
    expect(await first.trust.removeCertificate("ft")).toBe(true);
    expect(await second.trust.certificate("ft")).toBeUndefined();
    await first.close();
    await second.close();
  });
});
