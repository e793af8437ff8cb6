import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BerthApi as FetchBerthApi } from "@berth/client";
import { BerthApi, BerthApiError, BerthTransportError } from "@berth/client/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allRoutes } from "./routes/index.js";
import { startTestServer, type TestServer } from "./testing/test-server.fixture.js";

/** A loopback port nothing listens on (just released by a listener of our own). */
async function closedPort(): Promise<number> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as AddressInfo;
  await new Promise((resolve) => listener.close(resolve));
  return port;
}

describe("typed client", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("talks to berthd over the Unix socket without a token", async () => {
    const api = new BerthApi({ socketPath: server.socketPath });
    await api.members.create({ server_name: "c1" });
    expect(await api.members.names()).toEqual(["c1"]);
    expect((await api.members.get("c1")).status).toBe("Online");
  });

  it("talks to berthd over TCP with a token, and reports API errors with status and text", async () => {
    const api = new BerthApi({ url: server.url, token: server.adminToken });
    expect((await api.getServer()).environment.server).toBe("berth");
    const error = await api.members.get("missing").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BerthApiError);
    expect((error as BerthApiError).status).toBe(404);
    expect((error as BerthApiError).message).toBe('Cluster member "missing" not found');
  });

  it("reports an unreachable server as a transport error", async () => {
    const api = new BerthApi({ socketPath: join(server.dir, "nothing.sock") });
    const error = await api.getServer().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BerthTransportError);
    expect((error as BerthTransportError).code).toBe("ENOENT");
  });

  it("the fetch-based core (no Node transport) works against berthd over TCP", async () => {
    const api = new FetchBerthApi({ url: server.url, token: server.adminToken });
    await api.profiles.create({ name: "fetched", config: { "limits.cpu": "1" } });
    const read = await api.profiles.getWithEtag("fetched");
    expect(read.metadata.config).toEqual({ "limits.cpu": "1" });
    expect(read.etag).toMatch(/^"[0-9a-f]{64}"$/);
    await api.profiles.patch("fetched", { config: { "user.x": "1" } });
    const stale = await api.profiles
      .put("fetched", { description: "", config: {}, devices: {} }, { ifMatch: read.etag })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(BerthApiError);
    expect((stale as BerthApiError).status).toBe(412);
    expect((stale as BerthApiError).message).toMatch(/^ETag doesn't match: [0-9a-f]{64} vs [0-9a-f]{64}$/);
    const closed = await closedPort();
    const unreachable = await new FetchBerthApi({ url: `http://127.0.0.1:${closed}` })
      .getServer()
      .catch((e: unknown) => e);
    expect(unreachable).toBeInstanceOf(BerthTransportError);
    expect((unreachable as BerthTransportError).code).toBe("ECONNREFUSED");
  });

  it("sends a dry run's proposed scriptlet in X-Berth-Scriptlet (base64 of UTF-8)", async () => {
    const api = new BerthApi({ socketPath: server.socketPath });
    await api.members.create({ server_name: "c2" });
    const source =
      'def instance_placement(request, candidate_members):\n    log_info("héllo")\n    set_target("c2")\n';
    const result = await api.dryRun({ name: "dry" }, { scriptletSource: source });
    expect(result.decision).toEqual({ outcome: "placed", location: "c2", decided_by: "scriptlet" });
    expect(result.log.map((line) => line.message)).toEqual(["héllo"]);
  });

  it("serves an OpenAPI document covering every route, with the request schemas as components", async () => {
    const doc = (await new BerthApi({ url: server.url, token: server.adminToken }).openApi()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>
      >;
      components: { schemas: Record<string, unknown> };
    };
    for (const route of allRoutes) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, "{$1}");
      const operation = doc.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${path}`).toBeDefined();
      if (route.body) {
        const ref = operation?.requestBody?.content["application/json"]?.schema.$ref;
        expect(ref).toMatch(/^#\/components\/schemas\//);
        expect(doc.components.schemas[ref?.split("/").pop() ?? ""], `${route.body}`).toBeDefined();
      }
    }
    expect(doc.paths["/1.0/metrics"]).toBeDefined();
    // The LXD parts without a route-table entry: the events websocket and the trust store.
    const ops = doc.paths as unknown as Record<string, Record<string, Record<string, unknown>>>;
    expect(ops["/1.0/events"]?.get?.operationId).toBe("getEvents");
    expect(Object.keys(ops["/1.0/certificates"] ?? {})).toEqual(["get", "post"]);
    expect(Object.keys(ops["/1.0/certificates/{fingerprint}"] ?? {})).toEqual(["get", "delete"]);
    expect(Object.keys(ops["/1.0/operations/{id}"] ?? {})).toEqual(["get", "delete"]);
    // Where LXD answers with an operation: Prefer: respond-async and the 202 answer.
    const create = ops["/1.0/instances"]?.post as {
      parameters: { name: string }[];
      responses: Record<string, unknown>;
    };
    expect(create.parameters.map((p) => p.name)).toContain("Prefer");
    expect(JSON.stringify(create.responses["202"])).toContain("#/components/schemas/AsyncResponse");
    expect(doc.components.schemas.Operation).toBeDefined();
    expect(doc.components.schemas.ServerUntrusted).toBeDefined();
    const refs = new Set(
      [...JSON.stringify(doc).matchAll(/#\/components\/schemas\/([A-Za-z]+)/g)].map((m) => m[1] ?? ""),
    );
    const dangling = [...refs].filter((name) => doc.components.schemas[name] === undefined);
    expect(dangling).toEqual([]);
    const post = doc.components.schemas.InstancesPost as {
      properties: Record<string, unknown>;
      additionalProperties: boolean;
    };
    expect(Object.keys(post.properties)).toEqual(
      expect.arrayContaining(["name", "flavor", "forthcoming", "source"]),
    );
    expect(post.additionalProperties).toBe(false);
  });
});

describe("TLS", () => {
  const dir = mkdtempSync(join(tmpdir(), "berthd-tls-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("serves HTTPS when given a certificate and key", async () => {
    const cert = join(dir, "cert.pem");
    const key = join(dir, "key.pem");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "ignore" },
    );
    expect(existsSync(cert)).toBe(true);
    const server = await startTestServer({ tls: { cert: readFileSync(cert), key: readFileSync(key) } });
    try {
      expect(server.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const httpsUrl = server.httpsUrl ?? "";
      const api = new BerthApi({ url: httpsUrl, token: server.adminToken, ca: readFileSync(cert) });
      expect((await api.getServer()).api_version).toBe("1.0");
      const anonymous = new BerthApi({ url: httpsUrl, ca: readFileSync(cert) });
      // As with LXD, an HTTPS caller without credentials may read the server info, marked untrusted...
      expect(await anonymous.getServer()).toMatchObject({ auth: "untrusted" });
      // ...and nothing else.
      expect(((await anonymous.instances.names().catch((e: unknown) => e)) as BerthApiError).status).toBe(
        401,
      );
      const untrusting = new BerthApi({ url: httpsUrl, token: server.adminToken });
      expect(await untrusting.getServer().catch((e: unknown) => e)).toBeInstanceOf(BerthTransportError);
    } finally {
      await server.close();
    }
  });
});
