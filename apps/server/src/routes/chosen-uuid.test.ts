import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "../testing/test-server.fixture.js";

const OTHER_UUID = "0b5f3d1c-3c0b-4e56-9d7e-4f6b2a1c9e10";
const FREE_UUID = "7d9c2e4a-1b3f-4a6d-8e5c-9f0a1b2c3d4e";

describe("no cross-project UUID oracle (over HTTP)", () => {
  let server: TestServer;
  const post = async (path: string, token: string, body: unknown) => {
    const response = await server.fetch(path, { method: "POST", token, body: JSON.stringify(body) });
    return { status: response.status, json: (await response.json()) as { error: string; metadata: unknown } };
  };

  beforeAll(async () => {
    server = await startTestServer();
    const local = server.local();
    await addMembers(local, [{ name: "node1" }]);
    await local.projects.create({ name: "team" });
    await local.projects.create({ name: "other" });
    await local.createInstance({ name: "secret1", uuid: OTHER_UUID }, { project: "other" });
  });
  afterAll(() => server.close());

  it("answers a project-scoped token the same for another project's UUID and a free one (was 409 'already exists')", async () => {
    const taken = await post("/1.0/instances?project=team", server.teamToken, {
      name: "t1",
      uuid: OTHER_UUID,
    });
    const free = await post("/1.0/instances?project=team", server.teamToken, { name: "t2", uuid: FREE_UUID });
    expect(taken).toEqual(free);
    expect(taken.status).toBe(403);
    expect(taken.json.error).toBe(
      'Forbidden: only admin tokens may choose an instance\'s "uuid"; leave it out and the server assigns one',
    );
    const bulk = await post("/1.0/instances/bulk?project=team", server.teamToken, {
      instances: [{ name: "b1" }, { name: "b2", uuid: OTHER_UUID }],
    });
    expect(bulk.status).toBe(403);
    const dryRun = await post("/1.0/instances?project=team&dry_run=true", server.teamToken, {
      name: "d1",
      uuid: OTHER_UUID,
    });
    expect(dryRun.status).toBe(403);
  });

  it("still lets a project-scoped token create reservations with a server-assigned UUID it can address", async () => {
    const created = await post("/1.0/instances?project=team", server.teamToken, { forthcoming: true });
    expect(created.status).toBe(201);
    const uuid = (created.json.metadata as { uuid: string }).uuid;
    const shown = await server.fetch(`/1.0/instances/${uuid}?project=team`, { token: server.teamToken });
    expect(shown.status).toBe(200);
    // Another project's instance by UUID is "not found", like any unknown one.
    const hidden = await server.fetch(`/1.0/instances/${OTHER_UUID}?project=team`, {
      token: server.teamToken,
    });
    const unknown = await server.fetch(`/1.0/instances/${FREE_UUID}?project=team`, {
      token: server.teamToken,
    });
    expect(hidden.status).toBe(404);
    // The same text but for the UUID the caller sent itself.
    expect(JSON.stringify(await hidden.json()).replace(OTHER_UUID, "U")).toBe(
      JSON.stringify(await unknown.json()).replace(FREE_UUID, "U"),
    );
  });

  it("lets admins choose UUIDs, with the conflict named as before", async () => {
    const conflict = await post("/1.0/instances?project=team", server.adminToken, {
      name: "a1",
      uuid: OTHER_UUID,
    });
    expect(conflict.status).toBe(409);
    const chosen = await post("/1.0/instances?project=team", server.adminToken, {
      name: "a2",
      uuid: FREE_UUID,
    });
    expect(chosen.status).toBe(201);
  });
});
