import { BerthApiError } from "@berth/client/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "./testing/test-server.fixture.js";

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (err) {
    if (err instanceof BerthApiError) return err.status;
    throw err;
  }
}

describe("access control", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    const local = server.local();
    await addMembers(local, [{ name: "node1" }, { name: "node2" }]);
    await local.projects.create({ name: "team" });
    await local.projects.create({ name: "other" });
    await local.createInstance({ name: "secret1" }, { project: "other" });
  });
  afterAll(() => server.close());

  it("refuses TCP requests without a token (401, WWW-Authenticate, LXD error envelope)", async () => {
    const response = await server.fetch("/1.0");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
    expect(await response.json()).toMatchObject({ type: "error", error_code: 401 });
  });

  it("refuses a wrong token and a malformed Authorization header", async () => {
    expect((await server.fetch("/1.0", { token: "berth_not-a-real-token" })).status).toBe(401);
    const basic = await server.fetch("/1.0", { headers: { authorization: "Basic YWRtaW46YWRtaW4=" } });
    expect(basic.status).toBe(401);
    expect(((await basic.json()) as { error: string }).error).toContain("Bearer");
  });

  it("needs no token on the Unix socket", async () => {
    const info = await server.local().getServer();
    expect(info.api_version).toBe("1.0");
    expect(info.config).toBeTypeOf("object");
  });

  it("lets an admin token do everything", async () => {
    const admin = server.tcp(server.adminToken);
    await admin.patchServerConfig({ "user.note": "hello" });
    expect((await admin.getServer()).config["user.note"]).toBe("hello");
    expect(await admin.instances.names({ project: "other" })).toEqual(["secret1"]);
  });

  it("keeps a project-scoped token inside its projects", async () => {
    const team = server.tcp(server.teamToken);
    const created = await team.createInstance({ name: "t1" }, { project: "team" });
    expect(created.status).toBe(201);
    expect(await team.instances.names({ project: "team" })).toEqual(["t1"]);
    expect(await statusOf(team.instances.names({ project: "other" }))).toBe(403);
    expect(await statusOf(team.instances.get("secret1", { project: "other" }))).toBe(403);
    expect(await statusOf(team.instances.delete("secret1", { project: "other" }))).toBe(403);
    expect(await statusOf(team.createInstance({ name: "x1" }, { project: "other" }))).toBe(403);
    // No ?project= means the default project, which is not the token's either.
    expect(await statusOf(team.instances.names())).toBe(403);
    expect(await statusOf(team.projects.get("other"))).toBe(403);
    expect((await team.projects.get("team")).name).toBe("team");
    expect(await team.projects.names()).toEqual(["team"]);
  });

  it("hides server config from a project-scoped token and refuses admin-only routes", async () => {
    const team = server.tcp(server.teamToken);
    expect((await team.getServer()).config).toEqual({});
    expect(await statusOf(team.patchServerConfig({ "user.x": "y" }))).toBe(403);
    expect(await statusOf(team.putServerConfig({}))).toBe(403);
    expect(await statusOf(team.members.create({ server_name: "evil" }))).toBe(403);
    expect(await statusOf(team.members.delete("node1"))).toBe(403);
    expect(await statusOf(team.projects.patch("team", { config: { "limits.instances": "1000" } }))).toBe(403);
    expect(await statusOf(team.flavors.create({ name: "f", vcpus: 1, memory_mb: 1, disk_gb: 0 }))).toBe(403);
    expect(await statusOf(team.rebalancePlan())).toBe(403);
    expect(await statusOf(team.metricsText())).toBe(403);
    expect(await statusOf(team.tokens.names())).toBe(403);
    // Cluster-wide catalogs stay readable, so the token's holder can pick flavors and targets.
    expect(await team.members.names()).toEqual(["node1", "node2"]);
  });

  it("issues and revokes tokens over the API; secrets are shown once and stored hashed", async () => {
    const admin = server.tcp(server.adminToken);
    const created = await admin.createToken({ name: "ci", projects: ["team"] });
    expect(created.secret).toMatch(/^berth_/);
    const ci = server.tcp(created.secret);
    expect(await ci.instances.names({ project: "team" })).toEqual(["t1"]);
    const listed = await admin.tokens.list();
    expect(listed.map((t) => t.name).sort()).toEqual(["admin", "ci", "team"]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(await statusOf(admin.createToken({ name: "ci", admin: true }))).toBe(409);
    expect(await statusOf(admin.createToken({ name: "bad", admin: true, projects: ["team"] }))).toBe(400);
    await admin.tokens.delete("ci");
    expect(await statusOf(ci.instances.names({ project: "team" }))).toBe(401);
    expect(await statusOf(admin.tokens.delete("ci"))).toBe(404);
  });

  it("never writes a token to the logs", () => {
    const text = JSON.stringify(server.logs);
    expect(text).not.toContain(server.adminToken);
    expect(text).not.toContain(server.teamToken);
  });
});
