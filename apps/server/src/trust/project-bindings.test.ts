import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "../testing/test-server.fixture.js";

describe("restricted tokens are bound to projects, not to names (over HTTP)", () => {
  let server: TestServer;
  const admin = (path: string, method = "GET", body?: unknown) =>
    server.fetch(path, {
      method,
      token: server.adminToken,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  const issue = async (name: string, projects: string[]) => {
    const response = await admin("/1.0/auth/tokens", "POST", { name, projects });
    return {
      status: response.status,
      json: (await response.json()) as { error: string; metadata: { secret: string } },
    };
  };
  /** What a token gets listing a project's instances: 200, or 403 when it may not use the project. */
  const listAs = async (token: string, project: string) =>
    (await server.fetch(`/1.0/instances?project=${project}`, { token })).status;

  beforeAll(async () => {
    server = await startTestServer();
    await addMembers(server.local(), [{ name: "node1" }]);
  });
  afterAll(() => server.close());

  it("refuses a token for a project that does not exist yet (it used to reach the project created later)", async () => {
    const refused = await issue("early", ["future"]);
    expect(refused.status).toBe(404);
    expect(refused.json.error).toBe('Project "future" not found');
    expect((await admin("/1.0/projects", "POST", { name: "future" })).status).toBe(201);
    expect((await admin("/1.0/auth/tokens/early")).status).toBe(404);
  });

  it("follows a rename, and does not reach a new project created under the old name", async () => {
    expect((await admin("/1.0/projects", "POST", { name: "alpha" })).status).toBe(201);
    const token = (await issue("alpha-team", ["alpha"])).json.metadata.secret;
    expect(await listAs(token, "alpha")).toBe(200);
    expect((await admin("/1.0/projects/alpha", "POST", { name: "beta" })).status).toBe(201);
    expect(await listAs(token, "beta")).toBe(200);
    expect((await admin("/1.0/projects", "POST", { name: "alpha" })).status).toBe(201);
    expect(await listAs(token, "alpha")).toBe(403);
    const shown = (await (await admin("/1.0/auth/tokens/alpha-team")).json()) as {
      metadata: { projects: string[] };
    };
    expect(shown.metadata.projects).toEqual(["beta"]);
  });

  it("loses a deleted project, so one recreated under its name is not reachable", async () => {
    expect((await admin("/1.0/projects", "POST", { name: "gamma" })).status).toBe(201);
    const token = (await issue("gamma-team", ["gamma", "default"])).json.metadata.secret;
    expect((await admin("/1.0/projects/gamma", "DELETE")).status).toBe(200);
    expect((await admin("/1.0/projects", "POST", { name: "gamma" })).status).toBe(201);
    expect(await listAs(token, "gamma")).toBe(403);
    expect(await listAs(token, "default")).toBe(200);
  });

  it("keeps its project when the rename or delete is refused", async () => {
    expect((await admin("/1.0/projects", "POST", { name: "busy" })).status).toBe(201);
    const token = (await issue("busy-team", ["busy"])).json.metadata.secret;
    const created = await server.fetch("/1.0/instances?project=busy", {
      method: "POST",
      token,
      body: JSON.stringify({ name: "held" }),
    });
    expect(created.status).toBe(201);
    expect((await admin("/1.0/projects/busy", "DELETE")).status).toBe(409);
    expect((await admin("/1.0/projects/busy", "POST", { name: "busier" })).status).toBe(409);
    expect(await listAs(token, "busy")).toBe(200);
  });
});
