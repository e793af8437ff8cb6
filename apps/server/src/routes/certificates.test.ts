/**
 * `/1.0/certificates` and TLS client-certificate authentication on a real
 * berthd (HTTPS with its own certificate): adding, listing, showing and
 * removing trusted certificates, the request checks, the untrusted
 * caller's limits, and bearer tokens still working over the same listener.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { join } from "node:path";
import { generate } from "selfsigned";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../testing/test-server.fixture.js";

interface Answer {
  status: number;
  body: { metadata?: unknown; error?: string; error_code?: number };
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
  /** Over the Unix socket instead of HTTPS. */
  local?: boolean;
  client?: { cert: string; key: string };
  token?: string;
}

describe("/1.0/certificates and client-certificate authentication", () => {
  let server: TestServer;
  let serverCert: string;
  let client: { cert: string; key: string };
  let stranger: { cert: string; key: string };

  function call({ method, path, body, local, client: identity, token }: Call): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      const onResponse = (response: IncomingMessage) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
      };
      const req =
        local === true
          ? httpRequest({ socketPath: server.socketPath, path, method, headers }, onResponse)
          : httpsRequest(
              `${server.httpsUrl}${path}`,
              { method, headers, ca: serverCert, ...identity },
              onResponse,
            );
      req.once("error", reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  async function clientCertificate(name: string) {
    const made = await generate([{ name: "commonName", value: name }], {
      keyType: "ec",
      curve: "P-384",
      extensions: [{ name: "extKeyUsage", clientAuth: true }],
    });
    return { cert: made.cert, key: made.private };
  }

  /** A certificate-add token's secret redeemed by `holder` (LXD's client sends it as the password). */
  const redeem = (holder: { cert: string; key: string }, secret: string) =>
    call({
      method: "POST",
      path: "/1.0/certificates",
      client: holder,
      body: { name: "ignored", password: secret },
    });

  beforeAll(async () => {
    server = await startTestServer({ lxdTrust: true });
    serverCert = readFileSync(join(server.dir, "server.crt"), "utf8");
    client = await clientCertificate("alice");
    stranger = await clientCertificate("mallory");
  });
  afterAll(async () => {
    await server?.close();
  });

  it("keeps bearer tokens working over the HTTPS listener", async () => {
    const answer = await call({ method: "GET", path: "/1.0", token: server.adminToken });
    expect(answer.status).toBe(200);
    expect(answer.body.metadata).toMatchObject({ auth: "trusted" });
  });

  it("lets an untrusted client read GET /1.0 only", async () => {
    // Exactly LXD's ServerUntrusted: no config, environment or identity.
    const info = (await call({ method: "GET", path: "/1.0", client: stranger })).body.metadata as Record<
      string,
      unknown
    >;
    expect(Object.keys(info).sort()).toEqual([
      "api_extensions",
      "api_status",
      "api_version",
      "auth",
      "auth_methods",
      "public",
    ]);
    expect(info).toMatchObject({
      auth: "untrusted",
      public: false,
      auth_methods: ["tls"],
      api_version: "1.0",
    });
    // Without any client certificate, the same.
    expect((await call({ method: "GET", path: "/1.0" })).body.metadata).toEqual(info);
    const instances = await call({ method: "GET", path: "/1.0/instances", client: stranger });
    expect(instances.status).toBe(401);
    expect(instances.body.error).toContain("not trusted");
    const redeem = await call({
      method: "POST",
      path: "/1.0/certificates",
      client: stranger,
      body: { password: "guess", type: "client" },
    });
    expect(redeem).toMatchObject({ status: 403, body: { error: "not authorized" } });
  });

  it("adds a certificate given in the request, then trusts its holder", async () => {
    const added = await call({
      method: "POST",
      path: "/1.0/certificates",
      local: true,
      body: { name: "alice", type: "client", certificate: client.cert, restricted: false, projects: null },
    });
    expect(added.status).toBe(200);
    const list = await call({ method: "GET", path: "/1.0/certificates?recursion=1", local: true });
    const [entry] = list.body.metadata as { name: string; fingerprint: string; type: string }[];
    expect(entry).toMatchObject({ name: "alice", type: "client" });
    expect(entry?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const urls = await call({ method: "GET", path: "/1.0/certificates", local: true });
    expect(urls.body.metadata).toEqual([`/1.0/certificates/${entry?.fingerprint}`]);
    const shown = await call({
      method: "GET",
      path: `/1.0/certificates/${entry?.fingerprint.slice(0, 8)}`,
      local: true,
    });
    expect(shown.body.metadata).toMatchObject({ name: "alice", restricted: false, projects: [] });
    const again = await call({
      method: "POST",
      path: "/1.0/certificates",
      local: true,
      body: { name: "alice2", certificate: client.cert },
    });
    expect(again).toMatchObject({ status: 409, body: { error: "Certificate already in trust store" } });
    // Its holder is now an unrestricted client over HTTPS.
    expect((await call({ method: "GET", path: "/1.0", client })).body.metadata).toMatchObject({
      auth: "trusted",
    });
    expect((await call({ method: "GET", path: "/1.0/instances", client })).status).toBe(200);
    // Kept in the database's trust store.
    expect((await server.trust.store.listCertificates()).map((c) => c.name)).toEqual(["alice"]);
  });

  it("shows a token's secret once, in the answer that made it; the store and every listing hold none", async () => {
    const made = await call({
      method: "POST",
      path: "/1.0/certificates",
      local: true,
      body: { name: "once-only", token: true },
    });
    expect(made.status).toBe(202);
    const operation = made.body.metadata as { id: string; metadata: { secret: string } };
    const secret = operation.metadata.secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    // The database keeps the secret's hash only.
    const stored = (await server.trust.store.listTokens(new Date().toISOString())).find(
      (t) => t.name === "once-only",
    );
    expect(stored?.secret_hash).toBe(createHash("sha256").update(secret, "utf8").digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(secret);
    // Later views of the token's operation (lxc config trust list-tokens reads these) carry no secret.
    const listed = await call({ method: "GET", path: "/1.0/operations?recursion=1", local: true });
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    const running = (listed.body.metadata as { running?: { id: string; metadata: { secret: string } }[] })
      .running;
    expect(running?.find((op) => op.id === operation.id)?.metadata.secret).toBe("");
    const one = await call({ method: "GET", path: `/1.0/operations/${operation.id}`, local: true });
    expect(JSON.stringify(one.body)).not.toContain(secret);
    // The secret shown once redeems it (LXD's client sends it as the password).
    const holder = await clientCertificate("once-only");
    expect((await redeem(holder, secret)).status).toBe(200);
    expect((await call({ method: "GET", path: "/1.0", client: holder })).body.metadata).toMatchObject({
      auth: "trusted",
    });
  });

  it("refuses bad requests with a 400 naming the problem", async () => {
    const post = (body: unknown) => call({ method: "POST", path: "/1.0/certificates", local: true, body });
    expect((await post({ name: "x", colour: "red" })).body.error).toBe(
      'Invalid request body: unknown field "colour"',
    );
    expect((await post({ name: "x", restricted: "yes" })).body.error).toBe(
      'Invalid request body: "restricted" must be a boolean',
    );
    expect((await post({ name: "x", certificate: "not a certificate" })).status).toBe(400);
    expect((await post({ name: "x", certificate: "not a certificate" })).body.error).toMatch(
      /^Invalid certificate: /,
    );
    expect((await post({ name: "x", token: true, restricted: true })).body.error).toBe(
      "A restricted certificate needs at least one project",
    );
    expect((await post({ name: "x", type: "metrics", certificate: client.cert })).body.error).toBe(
      'Invalid certificate type "metrics": Berth trusts client certificates only',
    );
    expect((await post({ token: true })).body.error).toBe("A certificate add token needs a client name");
  });

  it("binds a restricted certificate to its projects, not their names: it follows a rename and loses a deleted project", async () => {
    const post = (body: unknown) => call({ method: "POST", path: "/1.0/certificates", local: true, body });
    const carol = await clientCertificate("carol");
    expect(
      await post({ name: "carol", certificate: carol.cert, restricted: true, projects: ["nowhere"] }),
    ).toMatchObject({ status: 404, body: { error: 'Project "nowhere" not found' } });
    expect((await post({ name: "x", token: true, restricted: true, projects: ["nowhere"] })).body.error).toBe(
      'Project "nowhere" not found',
    );
    await call({ method: "POST", path: "/1.0/projects", local: true, body: { name: "alpha" } });
    expect(
      (await post({ name: "carol", certificate: carol.cert, restricted: true, projects: ["alpha"] })).status,
    ).toBe(200);
    const projectsOfCarol = async () =>
      ((await server.trust.store.listCertificates()).find((c) => c.name === "carol")?.projects ?? []).join(
        ",",
      );
    expect(await projectsOfCarol()).toBe("alpha");
    expect(
      (await call({ method: "POST", path: "/1.0/projects/alpha", local: true, body: { name: "beta" } }))
        .status,
    ).toBe(201);
    expect(await projectsOfCarol()).toBe("beta");
    expect((await call({ method: "GET", path: "/1.0/instances?project=beta", client: carol })).status).toBe(
      200,
    );
    expect((await call({ method: "DELETE", path: "/1.0/projects/beta", local: true })).status).toBe(200);
    expect(await projectsOfCarol()).toBe("");
    await call({ method: "POST", path: "/1.0/projects", local: true, body: { name: "beta" } });
    expect((await call({ method: "GET", path: "/1.0/instances?project=beta", client: carol })).status).toBe(
      403,
    );
  });

  it("has a pending restricted token follow its project through a rename: redeemed, it reaches the renamed project only", async () => {
    const project = (name: string) =>
      call({ method: "POST", path: "/1.0/projects", local: true, body: { name } });
    await project("gamma");
    const made = await call({
      method: "POST",
      path: "/1.0/certificates",
      local: true,
      body: { name: "dave", token: true, restricted: true, projects: ["gamma"] },
    });
    expect(made.status).toBe(202);
    const secret = (made.body.metadata as { metadata: { secret: string } }).metadata.secret;
    expect(
      (await call({ method: "POST", path: "/1.0/projects/gamma", local: true, body: { name: "delta" } }))
        .status,
    ).toBe(201);
    // A project created under the old name before the token is redeemed is not the token's.
    await project("gamma");
    const dave = await clientCertificate("dave");
    expect((await redeem(dave, secret)).status).toBe(200);
    const stored = (await server.trust.store.listCertificates()).find((c) => c.name === "dave");
    expect(stored?.projects).toEqual(["delta"]);
    const listAs = async (name: string) =>
      (await call({ method: "GET", path: `/1.0/instances?project=${name}`, client: dave })).status;
    expect(await listAs("delta")).toBe(200);
    expect(await listAs("gamma")).toBe(403);
  });

  it("keeps the trust store to admins", async () => {
    const team = await call({ method: "GET", path: "/1.0/certificates", token: server.teamToken });
    expect(team).toMatchObject({ status: 403, body: { error: "not authorized" } });
  });

  it("removes a certificate by fingerprint prefix: its holder is untrusted again", async () => {
    const [entry] = (await call({ method: "GET", path: "/1.0/certificates?recursion=1", local: true })).body
      .metadata as { fingerprint: string }[];
    const missing = await call({ method: "DELETE", path: "/1.0/certificates/ffff0000", local: true });
    expect(missing).toMatchObject({ status: 404, body: { error: "Certificate not found" } });
    const removed = await call({
      method: "DELETE",
      path: `/1.0/certificates/${entry?.fingerprint.slice(0, 10)}`,
      local: true,
    });
    expect(removed.status).toBe(200);
    expect((await call({ method: "GET", path: "/1.0", client })).body.metadata).toMatchObject({
      auth: "untrusted",
    });
    expect(
      server.logs.some((l) => l.msg === "client certificate no longer trusted" && l.name === "alice"),
    ).toBe(true);
  });
});
