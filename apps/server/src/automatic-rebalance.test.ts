/**
 * Incus's automatic rebalancing over HTTP, with its real keys
 * (`cluster.rebalance.interval=1` minute): on a SQLite file, then on
 * PostgreSQL with two servers sharing the database, where only the one
 * holding the healer lease rebalances. Time is the engines' clock (a
 * ManualClock, as for healing): the test advances it by 5 s ticks, as
 * berthd's ticker would, and heartbeats keep the members online.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BerthApi } from "@berth/client/node";
import { Engine, ManualClock } from "@berth/engine";
import { type PostgresServer, postgresUnavailable, startPostgres } from "@berth/postgres-test-server";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "./app/app.js";
import { issueToken } from "./auth/issue-token.js";
import { openDatabase } from "./daemon/open-store.js";
import { listen } from "./http/listen.js";
import { ServerMetrics } from "./metrics/server-metrics.js";
import { addMembers, memberState } from "./testing/test-server.fixture.js";

const TICK_MS = 5_000;
const MEMBERS = ["busy", "calm1", "calm2"];

interface Berthd {
  engine: Engine;
  api: BerthApi;
  close(): Promise<void>;
}

/** `count` berthd (engine + HTTP app on loopback) on the database `db`, sharing `clock`. */
async function startServers(db: string, count: number, clock: ManualClock): Promise<Berthd[]> {
  const servers: Berthd[] = [];
  let token: string | undefined;
  for (let i = 0; i < count; i++) {
    const { store, tokens } = await openDatabase(db);
    const engine = await Engine.open({ store, clock, tickPeriodMs: TICK_MS });
    const app = createApp({
      engine,
      tokens,
      logger: pino({ level: "silent" }),
      metrics: new ServerMetrics(),
    });
    const running = await listen(app, { tcp: { host: "127.0.0.1", port: 0 } });
    token ??= (await issueToken(tokens, "admin", { admin: true })).secret;
    servers.push({
      engine,
      api: new BerthApi({ url: running.url as string, token }),
      close: async () => {
        await running.close();
        await engine.standDown();
        await engine.close();
        await store.close();
      },
    });
  }
  return servers;
}

const vm = (name: string, config: Record<string, string> = {}) => ({
  name,
  type: "virtual-machine" as const,
  config: { "migration.stateful": "true", "limits.cpu": "2", "limits.memory": "4GiB", ...config },
});

const SCRIPTLET = `def instance_placement(request, candidate_members):
    if request.reason == "rebalance" and request.name == "vm-keep":
        return "vm-keep stays on its member"
`;

function automaticRebalanceSuite(
  name: string,
  serverCount: number,
  database: () => Promise<string>,
  skip?: string,
) {
  describe(`automatic rebalancing over HTTP (${name}, ${serverCount} server(s))`, () => {
    if (skip !== undefined) {
      it.skip(`skipped: ${skip}`, () => {});
      return;
    }
    const clock = new ManualClock("2026-11-29T10:00:00Z");
    let servers: Berthd[];
    let api: BerthApi;
    const reports: Awaited<ReturnType<Engine["tick"]>>[][] = [];

    /** Advances the clock by `ms` in ticks of every server, heartbeating the members through the API. */
    async function runFor(ms: number): Promise<void> {
      for (let elapsed = 0; elapsed < ms; elapsed += TICK_MS) {
        clock.advance(TICK_MS);
        for (const member of MEMBERS) await api.putMemberState(member, memberState(32768) as never);
        reports.push(await Promise.all(servers.map((server) => server.engine.tick())));
      }
    }
    const runs = () =>
      reports.flat().flatMap((report) => (report.rebalanced === undefined ? [] : [report.rebalanced]));
    const location = async (instance: string) => (await api.instances.get(instance)).location;

    beforeAll(async () => {
      servers = await startServers(await database(), serverCount, clock);
      api = servers[0]!.api;
      await addMembers(
        api,
        MEMBERS.map((member) => ({ name: member, cpus: 16, memoryMb: 32768 })),
      );
      for (const body of [
        vm("vm-keep"),
        vm("vm1"),
        vm("vm2"),
        vm("vm3"),
        vm("vm-stop", { "cluster.evacuate": "stop" }),
        { name: "ct", config: { "limits.cpu": "2", "limits.memory": "4GiB" } },
      ])
        await api.createInstance(body, { target: "busy" });
    });
    afterAll(async () => {
      for (const server of servers ?? []) await server.close();
    });

    it("takes Incus's keys with their validation texts", async () => {
      const refused = await api
        .patchServerConfig({ "cluster.rebalance.threshold": "5" })
        .catch((error: Error) => error);
      expect((refused as Error).message).toBe(
        'Invalid field "config.cluster.rebalance.threshold": Value must be between 10 and 100',
      );
      await api.patchServerConfig({
        "cluster.rebalance.interval": "1",
        "cluster.rebalance.batch": "2",
        "instances.placement.scriptlet": SCRIPTLET,
      });
      const server = await api.getServer();
      expect(server.config["cluster.rebalance.interval"]).toBe("1");
      expect(server.api_extensions).toContain("cluster_rebalance");
    });

    it("previews the next run by its rules: batch, live-migratable instances only, the scriptlet", async () => {
      const preview = await api.rebalanceAutomaticPreview();
      expect(preview).toMatchObject({ enabled: true, interval: 1, threshold: 20, batch: 2, cooldown: "6H" });
      // busy holds 12 of 16 CPUs and 24 of 32 GiB: score 75.
      expect(preview.groups[0]?.members[0]).toEqual({ name: "busy", score: 75 });
      expect(preview.moves.map((move) => move.instance)).toEqual(["vm1", "vm2"]);
      const stays = Object.fromEntries(preview.stayed.map((stayed) => [stayed.instance, stayed.reason]));
      expect(stays).toEqual({
        ct: "not-live-migratable",
        "vm-keep": "scriptlet",
        "vm-stop": "not-live-migratable",
        vm3: "batch-full",
      });
      expect(await location("vm1")).toBe("busy");
    });

    it("within a minute moves at most batch instances off the busy member, each stamped with its move", async () => {
      await runFor(60_000);
      expect(runs()).toHaveLength(1);
      if (serverCount > 1) {
        // One healer: the other server never ran a pass.
        const roles = reports
          .at(-1)!
          .map((report) => report.role)
          .sort();
        expect(roles).toEqual(["healer", "standby"]);
      }
      const moved = runs()[0]!.moves;
      expect(moved.map((move) => move.name)).toEqual(["vm1", "vm2"]);
      const seconds = Date.parse(runs()[0]!.at) / 1000;
      for (const instance of ["vm1", "vm2"]) {
        const answer = await api.instances.get(instance);
        expect(answer.location).not.toBe("busy");
        expect(answer.config["volatile.rebalance.last_move"]).toBe(String(Math.trunc(seconds)));
      }
      for (const instance of ["vm-keep", "vm3", "vm-stop", "ct"])
        expect(await location(instance)).toBe("busy");
    });

    it("does not move an instance again within the cooldown", async () => {
      // An operator puts vm1 back on the busy member; the next run leaves it there.
      await api.moveInstance("vm1", "busy");
      await runFor(60_000);
      expect(runs()).toHaveLength(2);
      const second = runs()[1]!;
      expect(second.moves.map((move) => move.name)).not.toContain("vm1");
      expect(second.stayed.find((stayed) => stayed.name === "vm1")?.reason).toBe("cooling-down");
      expect(await location("vm1")).toBe("busy");
      expect(await location("vm-keep")).toBe("busy");
    });
  });
}

const sqliteDir = mkdtempSync(join(tmpdir(), "berth-autorebal-"));
automaticRebalanceSuite("SQLite", 1, async () => join(sqliteDir, "berth.db"));

let postgres: PostgresServer | undefined;
automaticRebalanceSuite(
  "PostgreSQL",
  2,
  async () => {
    postgres = await startPostgres();
    return postgres.createDatabase();
  },
  postgresUnavailable(),
);
afterAll(async () => {
  await postgres?.stop();
  rmSync(sqliteDir, { recursive: true, force: true });
});
