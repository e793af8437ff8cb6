import { openStore } from "@berth/adapter-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { Berthd } from "../server/berthd.js";
import { type SmallCluster, smallCluster } from "./cluster.js";
import { recordFigures, sized } from "./figures.js";
import { storm } from "./storm.js";

// Room for exactly 1,000 one-VCPU instances (10 members x 100 VCPU, ratio 1), 2,000 creates;
// the bounded run keeps the 64 clients and the 2:1 ratio at a fifth of the size.
const MEMBERS = 10;
const VCPU_PER_MEMBER = sized(100, 20);
const ROOM = MEMBERS * VCPU_PER_MEMBER;
const CLIENTS = 64;
const CREATES = 2 * ROOM;

const clusters: SmallCluster[] = [];
afterAll(() => {
  for (const cluster of clusters) cluster.cleanup();
});

async function stormOn(processes: number) {
  const cluster = await smallCluster(`storm-${processes}`, MEMBERS, {
    VCPU: { total: VCPU_PER_MEMBER, allocation_ratio: 1 },
    MEMORY_MB: { total: 1024 * 1024 },
  });
  clusters.push(cluster);
  const servers: Berthd[] = [];
  try {
    for (let i = 0; i < processes; i++)
      servers.push(await Berthd.start({ db: cluster.db, token: cluster.token }));
    const outcome = await storm(servers, {
      clients: CLIENTS,
      total: CREATES,
      body: (i) => ({ name: `c${i}`, config: { "limits.cpu": "1", "limits.memory": "64MiB" } }),
    });
    return { cluster, outcome };
  } finally {
    for (const server of servers) await server.stop();
  }
}

async function verifyStore(db: string) {
  const store = await openStore(db);
  try {
    const report = await store.check();
    const instances = await store.listInstances({});
    const usage = await store.memberUsage((await store.listMembers()).map((m) => m.name));
    const vcpusUsed = usage.reduce((sum, row) => sum + (row.used.VCPU ?? 0), 0);
    const overcommitted = usage.filter((row) => (row.used.VCPU ?? 0) > VCPU_PER_MEMBER).length;
    return { report, instances: instances.length, vcpusUsed, overcommitted };
  } finally {
    await store.close();
  }
}

describe.each([1, 2])("overcommit storm, %i berthd process(es) on one SQLite file", (processes) => {
  it(`${CLIENTS} clients, ${CREATES} creates, room for ${ROOM}: exactly ${ROOM} succeed, the rest get 507, check() is clean`, async () => {
    const { cluster, outcome } = await stormOn(processes);
    const stored = await verifyStore(cluster.db);
    recordFigures(`overcommit storm, ${processes} process(es)`, {
      requests: outcome.requests,
      successes: outcome.statuses[201] ?? 0,
      "capacity errors (507)": outcome.statuses[507] ?? 0,
      "other answers": outcome.requests - (outcome.statuses[201] ?? 0) - (outcome.statuses[507] ?? 0),
      "transport errors": outcome.transportErrors,
      "instances stored": stored.instances,
      "VCPU used / capacity": `${stored.vcpusUsed} / ${ROOM}`,
      overcommits: stored.overcommitted,
      "check() violations": stored.report.violations.length,
      "duration ms": outcome.durationMs,
      "creates/s": Math.round((outcome.requests / outcome.durationMs) * 1000),
    });
    expect(outcome.errors).not.toHaveProperty("500");
    expect(outcome.transportErrors).toBe(0);
    expect(outcome.requests).toBe(CREATES);
    expect(outcome.statuses).toEqual({ 201: ROOM, 507: CREATES - ROOM });
    expect(stored.report.violations).toEqual([]);
    expect(stored.instances).toBe(ROOM);
    expect(stored.vcpusUsed).toBe(ROOM);
    expect(stored.overcommitted).toBe(0);
  });
});
