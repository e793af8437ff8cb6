import { join } from "node:path";
import { openStore } from "@berth/adapter-sqlite";
import type { BerthApiError } from "@berth/client/node";
import { BerthApi } from "@berth/client/node";
import { Engine } from "@berth/engine";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app/app.js";
import { listen, type RunningServer } from "./http/listen.js";
import { ServerMetrics } from "./metrics/server-metrics.js";
import { addMembers, startTestServer, type TestServer } from "./testing/test-server.fixture.js";

/** A second berthd (own engine, own store connection) on the first one's database file. */
describe("two servers sharing one database", () => {
  let first: TestServer;
  let second: { api: BerthApi; running: RunningServer; close(): Promise<void> };

  beforeAll(async () => {
    first = await startTestServer();
    await addMembers(first.local(), [{ name: "s1" }, { name: "s2" }]);
    const db = join(first.dir, "berth.db");
    const store = await openStore(db);
    const engine = await Engine.open({ store });
    const app = createApp({
      engine,
      tokens: store.tokens,
      logger: pino({ level: "silent" }),
      metrics: new ServerMetrics(),
    });
    const running = await listen(app, { tcp: { host: "127.0.0.1", port: 0 } });
    second = {
      api: new BerthApi({ url: running.url as string, token: first.adminToken }),
      running,
      close: async () => {
        await running.close();
        await store.close();
      },
    };
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it("accepts the tokens issued through the other server", async () => {
    const created = await first.tcp(first.adminToken).createToken({ name: "shared", admin: true });
    const viaSecond = new BerthApi({ url: second.running.url as string, token: created.secret });
    expect((await viaSecond.getServer()).api_version).toBe("1.0");
  });

  it("runs the scriptlet set through the other server, without a restart", async () => {
    await first.tcp(first.adminToken).patchServerConfig({
      "instances.placement.scriptlet":
        'def instance_placement(request, candidate_members):\n    if request.name == "foo":\n        return "Invalid name"\n    set_target("s2")\n',
    });
    const error = await second.api.createInstance({ name: "foo" }).catch((e: unknown) => e);
    expect((error as BerthApiError).message).toBe(
      'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
    );
    const placed = await second.api.createInstance({ name: "bar" });
    expect(placed.metadata.location).toBe("s2");
    expect((await second.api.getServer()).config["instances.placement.scriptlet"]).toContain("Invalid name");
  });

  it("shows members and inventories registered through the other server at once", async () => {
    await addMembers(first.local(), [{ name: "late", cpus: 2 }]);
    expect(await second.api.members.names()).toContain("late");
    const vcpu = (await second.api.getInventory("late", "VCPU")) as unknown as { total: number };
    expect(vcpu.total).toBe(2);
    await first.local().members.delete("late");
    expect(await second.api.members.names()).not.toContain("late");
  });

  it("never overcommits with concurrent creates spread over both servers", async () => {
    const viaFirst = first.tcp(first.adminToken);
    await viaFirst.patchServerConfig({ "instances.placement.scriptlet": "" });
    // s1 and s2 have 8 VCPU each: room for exactly 16 one-CPU instances.
    const attempts = Array.from({ length: 40 }, (_, i) => i);
    const statuses: number[] = [];
    const workers = Array.from({ length: 8 }, async (_, worker) => {
      for (let i = worker; i < attempts.length; i += 8) {
        const api = i % 2 === 0 ? viaFirst : second.api;
        const status = await api
          .createInstance({ name: `cc${i}`, config: { "limits.cpu": "1" } })
          .then((r) => r.status)
          .catch((e: unknown) => (e as BerthApiError).status);
        statuses.push(status);
      }
    });
    await Promise.all(workers);
    expect(statuses.filter((s) => s === 201)).toHaveLength(16);
    expect(statuses.filter((s) => s === 507)).toHaveLength(24);
    // Each server sees usage within capacity (its model may lag the other server by a claim, never exceed).
    for (const member of ["s1", "s2"]) {
      const vcpu = (await viaFirst.getInventory(member, "VCPU")) as unknown as {
        total: number;
        used: number;
      };
      expect(vcpu.used).toBeLessThanOrEqual(vcpu.total);
    }
  }, 60_000);
});
