import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { addMembers, startTestServer, type TestServer } from "../testing/test-server.fixture.js";

interface Received {
  type: string;
  project: string;
  location: string;
  timestamp: string;
  metadata: Record<string, unknown>;
}

/** Opens /1.0/events and collects what arrives; resolves once the server accepted the upgrade. */
function watch(address: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(address, { headers });
  const events: Received[] = [];
  socket.on("message", (data) => events.push(JSON.parse(String(data))));
  const opened = new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("unexpected-response", (_request, response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      // @hono/node-ws answers a refused upgrade with its status and no body.
      response.on("end", () => reject(new Error(`HTTP ${response.statusCode}`)));
      response.resume();
    });
    socket.once("error", reject);
  });
  return { socket, events, opened };
}

async function errorOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: string }).error;
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for events");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("GET /1.0/events (LXD's websocket)", () => {
  let server: TestServer;
  const open: WebSocket[] = [];

  beforeEach(async () => {
    server = await startTestServer();
    await addMembers(server.local(), [{ name: "node1" }, { name: "node2" }]);
  });
  afterEach(async () => {
    for (const socket of open.splice(0)) socket.terminate();
    await server.close();
  });

  const overSocket = (query: string) => {
    const watcher = watch(`ws+unix://${server.socketPath}:/1.0/events${query}`);
    open.push(watcher.socket);
    return watcher;
  };

  it("streams lifecycle events of placements, moves and evacuations in LXD's format", async () => {
    const watcher = overSocket("?type=lifecycle");
    await watcher.opened;
    const api = server.local();
    await api.createInstance({ name: "c1" }, { target: "node1" });
    await api.moveInstance("c1", "node2");
    await api.evacuateMember("node2");
    await until(() =>
      watcher.events.some((event) => event.metadata.action === "cluster-member-evacuated"),
    ).catch((error) => {
      throw new Error(`${error}: ${JSON.stringify(watcher.events)}`);
    });
    expect(watcher.events.map((event) => event.metadata.action)).toEqual([
      "instance-created",
      "instance-moved",
      "instance-moved",
      "cluster-member-evacuated",
    ]);
    expect(watcher.events[0]).toMatchObject({
      type: "lifecycle",
      project: "default",
      metadata: { source: "/1.0/instances/c1", context: { location: "node1", decided_by: "target" } },
    });
    expect(watcher.events[1]!.metadata.context).toMatchObject({ from: "node1", to: "node2", reason: "move" });
    expect(watcher.events[2]!.metadata.context).toMatchObject({
      from: "node2",
      to: "node1",
      reason: "evacuation",
    });
    expect(watcher.events[3]!.metadata).toMatchObject({
      source: "/1.0/cluster/members/node2",
      context: { reason: "evacuation", moved: 1 },
    });
  });

  it("sends scriptlet log_* lines as logging events, and only the types asked for", async () => {
    await server.engine.setConfig({
      "instances.placement.scriptlet":
        'def instance_placement(request, candidate_members):\n    log_warn("placing ", request.name)\n',
    });
    const logging = overSocket("?type=logging");
    const lifecycle = overSocket("?type=lifecycle");
    await Promise.all([logging.opened, lifecycle.opened]);
    await server.local().createInstance({ name: "c1" });
    await until(() => logging.events.length > 0 && lifecycle.events.length > 0);
    expect(logging.events[0]!.metadata).toEqual({
      message: "Instance placement scriptlet: placing c1",
      level: "warn",
      context: { instance: "c1", project: "default", reason: "new" },
    });
    expect(logging.events.every((event) => event.type === "logging")).toBe(true);
    expect(lifecycle.events.every((event) => event.type === "lifecycle")).toBe(true);
  });

  it("keeps to the project asked for; all-projects takes every one", async () => {
    const local = server.local();
    await local.projects.create({ name: "team" });
    const defaultOnly = overSocket("?type=lifecycle");
    const all = overSocket("?type=lifecycle&all-projects=true");
    await Promise.all([defaultOnly.opened, all.opened]);
    await server.tcp(server.teamToken).createInstance({ name: "t1" }, { project: "team" });
    await local.createInstance({ name: "d1" });
    await until(() => all.events.length === 2 && defaultOnly.events.length === 1);
    expect(defaultOnly.events.map((event) => event.metadata.source)).toEqual(["/1.0/instances/d1"]);
    expect(all.events.map((event) => event.project).sort()).toEqual(["default", "team"]);
  });

  it("over TCP needs a token, and a restricted token only its projects", async () => {
    const base = server.url.replace(/^http/, "ws");
    await expect(watch(`${base}/1.0/events`).opened).rejects.toThrow("HTTP 401");
    await expect(
      watch(`${base}/1.0/events?project=default`, { authorization: `Bearer ${server.teamToken}` }).opened,
    ).rejects.toThrow("HTTP 403");
    await expect(
      watch(`${base}/1.0/events?all-projects=true`, { authorization: `Bearer ${server.teamToken}` }).opened,
    ).rejects.toThrow("HTTP 403");
    // The same checks on a plain GET show their texts.
    const plain = await server.fetch("/1.0/events?all-projects=true", { token: server.teamToken });
    expect(await errorOf(plain)).toBe("Forbidden: all-projects=true needs an admin token");
    const team = watch(`${base}/1.0/events?project=team`, { authorization: `Bearer ${server.teamToken}` });
    open.push(team.socket);
    await team.opened;
  });

  it("refuses unknown types and plain GETs with a clear 400", async () => {
    await expect(overSocket("?type=lifecycle,gossip").opened).rejects.toThrow("HTTP 400");
    const badType = await server.fetch("/1.0/events?type=gossip", { token: server.adminToken });
    expect(await errorOf(badType)).toBe(
      'Invalid query parameter "type": "gossip" is not one of lifecycle, logging, operation',
    );
    const plain = await server.fetch("/1.0/events", { token: server.adminToken });
    expect(plain.status).toBe(400);
    expect(await errorOf(plain)).toBe("GET /1.0/events is a websocket: send Upgrade: websocket");
  });

  it("stops following the engine when the last websocket closes", async () => {
    const watcher = overSocket("");
    await watcher.opened;
    expect(server.engine.events.active).toBe(true);
    watcher.socket.close();
    await until(() => !server.engine.events.active);
  });
});
