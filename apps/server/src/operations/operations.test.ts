import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addMembers, startTestServer, type TestServer } from "../testing/test-server.fixture.js";
import type { OperationWire } from "./operations.js";

interface AsyncEnvelope {
  type: string;
  operation: string;
  error: string;
  metadata: OperationWire;
}

async function envelopeOf(response: Response): Promise<AsyncEnvelope> {
  return (await response.json()) as AsyncEnvelope;
}

async function listOf(response: Response): Promise<Record<string, (string | OperationWire)[]>> {
  return ((await response.json()) as { metadata: Record<string, (string | OperationWire)[]> }).metadata;
}

/** What LXD's Go client sends (`lxc`, and programs on LXD's client library). */
const LXD_CLIENT = { "user-agent": "LXD 5.0.2" };

describe("LXD operations", () => {
  let server: TestServer;

  beforeEach(async () => {
    server = await startTestServer({ operationRetentionMs: 300 });
    await addMembers(server.local(), [{ name: "node1" }, { name: "node2" }]);
  });
  afterEach(async () => {
    await server.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = LXD_CLIENT) =>
    server.fetch(path, { method: "POST", body: JSON.stringify(body), token: server.adminToken, headers });

  it("answers an LXD client's create with 202 and a finished operation, and lists it by status", async () => {
    const response = await post("/1.0/instances", { name: "c1", config: null, profiles: null });
    expect(response.status).toBe(202);
    const envelope = await envelopeOf(response);
    expect(envelope).toMatchObject({
      type: "async",
      status: "Operation created",
      status_code: 100,
      error_code: 0,
      error: "",
      metadata: {
        class: "task",
        description: "Creating instance",
        status: "Success",
        status_code: 200,
        resources: { instances: ["/1.0/instances/c1"] },
        may_cancel: false,
        err: "",
      },
    });
    expect(envelope.operation).toBe(`/1.0/operations/${envelope.metadata.id}`);
    expect(response.headers.get("location")).toBe(envelope.operation);

    const list = await listOf(await server.fetch("/1.0/operations", { token: server.adminToken }));
    expect(list).toEqual({ success: [envelope.operation] });
    const full = await listOf(
      await server.fetch("/1.0/operations?recursion=1", { token: server.adminToken }),
    );
    expect(full).toEqual({ success: [expect.objectContaining({ id: envelope.metadata.id })] });
    const waited = await envelopeOf(
      await server.fetch(`${envelope.operation}/wait?timeout=5`, { token: server.adminToken }),
    );
    expect(waited.metadata.status).toBe("Success");
  });

  it("keeps the sync answer for other clients", async () => {
    const response = await post("/1.0/instances", { name: "c1" }, {});
    expect(response.status).toBe(201);
    expect(((await response.json()) as { metadata: { location: string } }).metadata.location).toMatch(
      /^node[12]$/,
    );
  });

  it("answers Prefer: respond-async with an operation carrying the sync answer; LXD's carry none", async () => {
    const berth = await envelopeOf(await post("/1.0/instances", { name: "c1" }, { prefer: "respond-async" }));
    expect(berth.metadata.metadata).toMatchObject({
      response: { status: 201, location: "/1.0/instances/c1", metadata: { name: "c1" } },
    });
    const taken = await envelopeOf(await post("/1.0/instances", { name: "c1" }, { prefer: "respond-async" }));
    expect(taken.metadata.err).toBe(
      'Failed instance creation: Instance "c1" already exists in project "default"',
    );
    expect(taken.metadata.metadata).toMatchObject({
      response: { status: 409, error: 'Instance "c1" already exists in project "default"' },
    });
    const lxd = await envelopeOf(await post("/1.0/instances", { name: "c2" }));
    expect(lxd.metadata.metadata).toBeNull();
  });

  it("fails the operation with the engine's text (LXD's prefix on creates), and refuses to cancel it", async () => {
    await post("/1.0/instances", { name: "c1" }, {});
    const taken = await envelopeOf(await post("/1.0/instances", { name: "c1" }));
    expect(taken.metadata).toMatchObject({
      status: "Failure",
      status_code: 400,
      err: 'Failed instance creation: Instance "c1" already exists in project "default"',
    });
    const moved = await envelopeOf(await post("/1.0/instances/nope?target=node2", { migration: true }));
    expect(moved.metadata.err).toBe('Instance "nope" not found in project "default"');
    const cancel = await server.fetch(taken.operation, { method: "DELETE", token: server.adminToken });
    expect(cancel.status).toBe(400);
    expect((await envelopeOf(cancel)).error).toBe("Only running operations can be cancelled");
  });

  it("are per project, 404 elsewhere and once expired, and validate ?timeout=", async () => {
    const op = await envelopeOf(await post("/1.0/instances", { name: "c1" }));
    const elsewhere = await server.fetch(`${op.operation}?project=team`, { token: server.adminToken });
    expect(elsewhere.status).toBe(404);
    expect((await envelopeOf(elsewhere)).error).toBe("Operation not found");
    const badWait = await server.fetch(`${op.operation}/wait?timeout=soon`, { token: server.adminToken });
    expect((await envelopeOf(badWait)).error).toBe(
      'Invalid query parameter "timeout": expected whole seconds or -1, got "soon"',
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await server.fetch(op.operation, { token: server.adminToken })).status).toBe(404);
  });

  it("validation errors stay sync errors (nothing was started)", async () => {
    const response = await post("/1.0/instances", { name: "c1", flavour: "x" });
    expect(response.status).toBe(400);
    expect((await envelopeOf(response)).error).toBe('Unknown field "flavour"');
    expect(await listOf(await server.fetch("/1.0/operations", { token: server.adminToken }))).toEqual({});
  });
});
