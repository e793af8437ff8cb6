import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing/test-server.fixture.js";

/**
 * Lost updates over HTTP. GET of a catalog record answers an `ETag`; PUT and
 * PATCH with `If-Match` are refused with 412 and Incus's text when the
 * record changed since (what `lxc profile edit` relies on). (That a write
 * racing another between its read and its write is refused or re-applied,
 * never written over, is the engine's test: catalog-edits.test.ts.)
 */
describe("ETag / If-Match on catalog records", () => {
  let server: TestServer;

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await server.fetch(path, {
      method,
      token: server.adminToken,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const envelope = (await response.json()) as { error?: string; metadata?: Record<string, unknown> };
    return { ...envelope, status: response.status, etag: response.headers.get("etag") };
  }

  beforeAll(async () => {
    server = await startTestServer();
    await call("POST", "/1.0/profiles", { name: "web", config: { "limits.cpu": "1" } });
    await call("POST", "/1.0/projects", { name: "team", config: {} });
    await call("POST", "/1.0/images", { fingerprint: "c".repeat(64), architecture: "x86_64" });
    await call("POST", "/1.0/placement-groups", { name: "pg", policy: "spread" });
    await call("POST", "/1.0/flavors", { name: "m1", vcpus: 1, memory_mb: 1024, disk_gb: 10 });
  });
  afterAll(() => server.close());

  const records = [
    {
      path: "/1.0/profiles/web",
      put: { description: "", config: { "limits.cpu": "3" }, devices: {} },
      patch: { description: "changed" },
    },
    { path: "/1.0/projects/team", put: { description: "", config: {} }, patch: { description: "changed" } },
    {
      path: `/1.0/images/${"c".repeat(64)}`,
      put: { description: "", properties: { os: "x" } },
      patch: { description: "changed" },
    },
    {
      path: "/1.0/placement-groups/pg",
      put: { description: "", config: { policy: "compact", rigor: "strict" } },
      patch: { description: "changed" },
    },
    {
      path: "/1.0/flavors/m1",
      put: { description: "", vcpus: 2, memory_mb: 1024, disk_gb: 10, extra_specs: {} },
      patch: { description: "changed" },
    },
  ];

  for (const record of records) {
    it(`${record.path}: a write with a stale If-Match is refused (412), a fresh one applies`, async () => {
      const read = await call("GET", record.path);
      expect(read.status).toBe(200);
      expect(read.etag).toMatch(/^"[0-9a-f]{64}"$/);
      // Someone else changes the record after our read.
      expect((await call("PATCH", record.path, record.patch)).status).toBe(200);
      const changed = await call("GET", record.path);
      expect(changed.etag).not.toBe(read.etag);

      for (const method of ["PUT", "PATCH"]) {
        const refused = await call(method, record.path, record.put, { "If-Match": read.etag! });
        expect(refused.status).toBe(412);
        expect(refused.error).toBe(
          `ETag doesn't match: ${changed.etag!.slice(1, -1)} vs ${read.etag!.slice(1, -1)}`,
        );
      }
      expect((await call("GET", record.path)).metadata).toEqual(changed.metadata);

      // The current ETag, quoted (as lxc sends it) or bare, lets the write through.
      expect((await call("PUT", record.path, record.put, { "If-Match": changed.etag! })).status).toBe(200);
      const after = await call("GET", record.path);
      expect(
        (await call("PATCH", record.path, record.patch, { "If-Match": after.etag!.slice(1, -1) })).status,
      ).toBe(200);
    });
  }

  it("documents ETag and If-Match in the OpenAPI document", async () => {
    const doc = (await server.tcp(server.adminToken).openApi()) as {
      paths: Record<
        string,
        Record<string, { parameters?: { name: string; in: string }[]; responses: object }>
      >;
    };
    const put = doc.paths["/1.0/profiles/{name}"]?.put;
    expect(put?.parameters?.some((p) => p.name === "If-Match" && p.in === "header")).toBe(true);
    expect(Object.keys(put?.responses ?? {})).toContain("412");
    const get = doc.paths["/1.0/profiles/{name}"]?.get as { responses: Record<string, { headers?: object }> };
    expect(get.responses["200"]?.headers).toHaveProperty("ETag");
  });
});
