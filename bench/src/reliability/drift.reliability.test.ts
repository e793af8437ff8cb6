/**
 * Processes sharing one SQLite file stay in step (issue #16, found when
 * tried): capacity freed through one process is free in the others at once
 * (it used to show as used in the first for more than 120 s, which then
 * answered 507 while the member was empty), and under contention at exact
 * capacity no process answers 507 while room is free (2 of 4 three-process
 * runs did).
 */
import { afterAll, describe, expect, it } from "vitest";
import { Berthd } from "../server/berthd.js";
import { type SmallCluster, smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";
import { storm } from "./storm.js";

const clusters: SmallCluster[] = [];
afterAll(() => {
  for (const cluster of clusters) cluster.cleanup();
});

const INSTANCE = { config: { "limits.cpu": "1", "limits.memory": "64MiB" } };

async function startAll(count: number, cluster: SmallCluster): Promise<Berthd[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      Berthd.start({ db: cluster.db, token: cluster.token, logLevel: "warn" }),
    ),
  );
}

describe.each([2, 3])("%i berthd processes on one SQLite file", (processes) => {
  it("capacity freed through one process is free in every other at once", async () => {
    const cluster = await smallCluster(`drift-free-${processes}`, 1, {
      VCPU: { total: 10, allocation_ratio: 1 },
      MEMORY_MB: { total: 1024 * 1024 },
    });
    clusters.push(cluster);
    const servers = await startAll(processes, cluster);
    try {
      const [first, second] = [servers[0]!, servers[1]!];
      for (let i = 0; i < 10; i++)
        expect((await first.request("POST", "/1.0/instances", { name: `a${i}`, ...INSTANCE })).status).toBe(
          201,
        );
      // Full, as every process sees it.
      for (const server of servers)
        expect((await server.request("POST", "/1.0/instances", { name: "over", ...INSTANCE })).status).toBe(
          507,
        );
      // Emptied through another process.
      for (let i = 0; i < 10; i++)
        expect((await second.request("DELETE", `/1.0/instances/a${i}`)).status).toBeLessThan(300);
      for (const [index, server] of servers.entries()) {
        const member = await server.request("GET", "/1.0/cluster/members/node1?recursion=1");
        expect({ server: index, member: member.status }).toEqual({ server: index, member: 200 });
        // Room again, at once, in every process (the first one filled it; it must not answer 507 now).
        expect(
          (await server.request("POST", "/1.0/instances", { name: `again${index}`, ...INSTANCE })).status,
        ).toBe(201);
      }
    } finally {
      for (const server of servers) await server.stop();
    }
  });

  it("contention at exact capacity: exactly the room succeeds, the rest 507, in every run", async () => {
    const runs = sized(4, 1);
    const room = sized(200, 60);
    const results: string[] = [];
    for (let run = 0; run < runs; run++) {
      const cluster = await smallCluster(`drift-storm-${processes}`, 4, {
        VCPU: { total: room / 4, allocation_ratio: 1 },
        MEMORY_MB: { total: 1024 * 1024 },
      });
      clusters.push(cluster);
      const servers = await startAll(processes, cluster);
      let outcome: Awaited<ReturnType<typeof storm>>;
      try {
        outcome = await storm(servers, {
          clients: 32,
          total: 2 * room,
          body: (i) => ({ name: `c${i}`, ...INSTANCE }),
        });
      } finally {
        for (const server of servers) await server.stop();
      }
      results.push(`${outcome.statuses[201] ?? 0}/${outcome.statuses[507] ?? 0}`);
      expect(outcome.statuses).toEqual({ 201: room, 507: room });
    }
    recordFigures(`SQLite drift, ${processes} processes, exact capacity`, {
      runs,
      "created / 507 per run": results.join(", "),
      room,
    });
  });
});
