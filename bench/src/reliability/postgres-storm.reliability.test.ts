/**
 * Several berthd servers on one PostgreSQL database (issue #16): 64 clients
 * fire creates at three servers with room for exactly half of them; then
 * the same with bulk batches and reservations mixed in; then with one
 * server SIGKILLed mid-way. Never an overcommit, never a false 507, no
 * half-done batch, `check()` clean.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Berthd } from "../server/berthd.js";
import { recordFigures, sized } from "./figures.js";
import { mixedOperations, mixedStorm, type Operation } from "./mixed-storm.js";
import {
  POSTGRES_UNAVAILABLE,
  type PostgresServer,
  postgresCluster,
  startPostgres,
  verifyPostgres,
} from "./postgres-cluster.js";
import { storm } from "./storm.js";

const MEMBERS = 10;
const VCPU_PER_MEMBER = sized(100, 10);
const ROOM = MEMBERS * VCPU_PER_MEMBER;
const CLIENTS = 64;
const SERVERS = 3;
/**
 * A 503 (a lock wait or a pooled connection past its bound, nothing
 * written) is sent again after its Retry-After, as clients are told to:
 * on this shared 2-core machine, under verify's load, waits can pass the
 * bound. Counted in the figures; any other refusal than 507 fails the test.
 */
const BUSY_RETRIES = 5;
const INVENTORIES = {
  VCPU: { total: VCPU_PER_MEMBER, allocation_ratio: 1 },
  MEMORY_MB: { total: 1024 * 1024 },
};

let pg: PostgresServer;
beforeAll(async () => {
  if (POSTGRES_UNAVAILABLE === "") pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

/** All-or-nothing: every bulk batch is entirely stored or entirely absent. */
function expectWholeBatches(operations: readonly Operation[], instances: readonly { name: string }[]) {
  const names = new Set(instances.map((instance) => instance.name));
  for (const op of operations) {
    if (op.kind !== "bulk") continue;
    const present = op.names.filter((name) => names.has(name)).length;
    expect([0, op.names.length]).toContain(present);
  }
}

async function startServers(url: string, token: string): Promise<Berthd[]> {
  return Promise.all(
    Array.from({ length: SERVERS }, () => Berthd.start({ db: url, token, logLevel: "warn" })),
  );
}

if (POSTGRES_UNAVAILABLE !== "") it.skip(`PostgreSQL storm skipped: ${POSTGRES_UNAVAILABLE}`, () => {});

describe.skipIf(POSTGRES_UNAVAILABLE !== "")(`${SERVERS} berthd servers on one PostgreSQL database`, () => {
  it(`${CLIENTS} clients, ${2 * ROOM} creates, room for ${ROOM}: exactly ${ROOM} succeed, the rest get 507, check() is clean`, async () => {
    const cluster = await postgresCluster(pg, MEMBERS, INVENTORIES);
    const servers = await startServers(cluster.url, cluster.token);
    let outcome: Awaited<ReturnType<typeof storm>>;
    try {
      outcome = await storm(servers, {
        clients: CLIENTS,
        total: 2 * ROOM,
        body: (i) => ({ name: `c${i}`, config: { "limits.cpu": "1", "limits.memory": "64MiB" } }),
        busyRetries: BUSY_RETRIES,
      });
    } finally {
      for (const server of servers) await server.stop();
    }
    const stored = await verifyPostgres(cluster.url, VCPU_PER_MEMBER);
    recordFigures("postgres storm, 3 servers, creates", {
      requests: outcome.requests,
      successes: outcome.statuses[201] ?? 0,
      "capacity errors (507)": outcome.statuses[507] ?? 0,
      "transport errors": outcome.transportErrors,
      "503s sent again": outcome.busyRetries,
      "VCPU used / capacity": `${stored.vcpusUsed} / ${ROOM}`,
      overcommits: stored.overcommitted,
      "check() violations": stored.report.violations.length,
      "duration ms": outcome.durationMs,
    });
    expect(outcome.errors).not.toHaveProperty("500");
    expect(outcome.transportErrors).toBe(0);
    expect(outcome.statuses).toEqual({ 201: ROOM, 507: ROOM });
    expect(stored.report.violations).toEqual([]);
    expect(stored.instances.length).toBe(ROOM);
    expect(stored.vcpusUsed).toBe(ROOM);
    expect(stored.overcommitted).toBe(0);
  });

  it("bulk batches and reservations mixed in: every VCPU used, nothing over, every refusal a 507, check() clean", async () => {
    const cluster = await postgresCluster(pg, MEMBERS, INVENTORIES);
    const servers = await startServers(cluster.url, cluster.token);
    // About twice the room in instances; the last ops are singles, so any room left would be a false 507.
    const operations = mixedOperations(Math.round(ROOM * 1.2), { tail: Math.round(ROOM * 0.2) });
    let outcome: Awaited<ReturnType<typeof mixedStorm>>;
    try {
      outcome = await mixedStorm(() => servers, operations, { clients: CLIENTS, busyRetries: BUSY_RETRIES });
    } finally {
      for (const server of servers) await server.stop();
    }
    const stored = await verifyPostgres(cluster.url, VCPU_PER_MEMBER);
    const refusals = Object.keys(outcome.errors).filter((key) => !/ 507 /.test(key));
    recordFigures("postgres storm, 3 servers, bulk + reservations", {
      operations: operations.length,
      "instances placed": outcome.placed,
      "VCPU used / capacity": `${stored.vcpusUsed} / ${ROOM}`,
      "answers by kind": JSON.stringify(outcome.statuses),
      "transport errors": outcome.transportErrors,
      "503s sent again": outcome.busyRetries,
      "check() violations": stored.report.violations.length,
      "duration ms": outcome.durationMs,
    });
    expect(refusals).toEqual([]);
    expect(outcome.transportErrors).toBe(0);
    expect(stored.report.violations).toEqual([]);
    expect(stored.overcommitted).toBe(0);
    expect(stored.instances.length).toBe(outcome.placed);
    expect(stored.vcpusUsed).toBe(ROOM);
    expectWholeBatches(operations, stored.instances);
  });

  it("one server SIGKILLed mid-way: no half-done batch, the others keep serving, check() clean", async () => {
    const cluster = await postgresCluster(pg, MEMBERS, INVENTORIES);
    const servers = await startServers(cluster.url, cluster.token);
    const operations = mixedOperations(Math.round(ROOM * 1.2), {
      bulkEvery: 3,
      tail: Math.round(ROOM * 0.2),
    });
    let alive = [...servers];
    let killed = false;
    let outcome: Awaited<ReturnType<typeof mixedStorm>>;
    try {
      outcome = await mixedStorm(() => alive, operations, {
        clients: CLIENTS,
        busyRetries: BUSY_RETRIES,
        onProgress: (done) => {
          if (killed || done < operations.length / 3) return;
          killed = true;
          alive = servers.slice(1);
          void servers[0]!.kill();
        },
      });
    } finally {
      for (const server of servers.slice(1)) await server.stop();
      await servers[0]!.kill();
    }
    const stored = await verifyPostgres(cluster.url, VCPU_PER_MEMBER);
    const unexpected = Object.keys(outcome.errors).filter((key) => !/ 507 /.test(key));
    recordFigures("postgres storm, 3 servers, one SIGKILLed mid-way", {
      operations: operations.length,
      "instances stored": stored.instances.length,
      "VCPU used / capacity": `${stored.vcpusUsed} / ${ROOM}`,
      "requests cut by the kill": outcome.transportErrors,
      "503s sent again": outcome.busyRetries,
      "check() violations": stored.report.violations.length,
    });
    expect(killed).toBe(true);
    expect(unexpected).toEqual([]);
    expect(stored.report.violations).toEqual([]);
    expect(stored.overcommitted).toBe(0);
    // The survivors kept serving until the room was gone.
    expect(stored.vcpusUsed).toBe(ROOM);
    expectWholeBatches(operations, stored.instances);
  });
});
