/**
 * One ledger across two berthd servers on one PostgreSQL database: clients
 * fire LXD creates (`POST /1.0/instances`, 1 VCPU) and Placement claims
 * (`PUT /placement/allocations/{consumer}` on a member's root provider,
 * 1 VCPU) at both servers at once, twice as many as there is room for.
 * Never an overcommit: the VCPU in use equals the creates and claims that
 * succeeded, no member is over its capacity, `check()` (which judges the
 * consumers on the member's ledger too) is clean.
 */
import { randomUUID } from "node:crypto";
import { memberProviderUuid } from "@berth/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PlacementClient } from "../placement-api/client.js";
import { Berthd } from "../server/berthd.js";
import { recordFigures, sized } from "./figures.js";
import {
  POSTGRES_UNAVAILABLE,
  type PostgresServer,
  postgresCluster,
  startPostgres,
  verifyPostgres,
} from "./postgres-cluster.js";

const MEMBERS = 4;
const VCPU_PER_MEMBER = sized(40, 8);
const ROOM = MEMBERS * VCPU_PER_MEMBER;
const CLIENTS = 16;
/** A 503 (a lock wait past its bound, nothing written) is sent again, as clients are told to. */
const BUSY_RETRIES = 5;

let pg: PostgresServer;
beforeAll(async () => {
  if (POSTGRES_UNAVAILABLE === "") pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

if (POSTGRES_UNAVAILABLE !== "")
  it.skip(`PostgreSQL one-ledger storm skipped: ${POSTGRES_UNAVAILABLE}`, () => {});

describe.skipIf(POSTGRES_UNAVAILABLE !== "")(
  "the LXD and Placement APIs on two servers, one PostgreSQL",
  () => {
    it(`${CLIENTS} clients, ${2 * ROOM} creates and claims, room for ${ROOM}: never an overcommit, check() clean`, async () => {
      const cluster = await postgresCluster(pg, MEMBERS, {
        VCPU: { total: VCPU_PER_MEMBER, allocation_ratio: 1 },
        MEMORY_MB: { total: 1024 * 1024 },
      });
      const servers = await Promise.all(
        [0, 1].map(() => Berthd.start({ db: cluster.url, token: cluster.token, logLevel: "warn" })),
      );
      const placement = servers.map((s) => new PlacementClient(s.url, `${s.url}/placement`, cluster.token));
      const roots = Array.from({ length: MEMBERS }, (_, i) => memberProviderUuid(`node${i + 1}`));
      const statuses: number[] = [];
      let busy = 0;
      const one = async (i: number): Promise<number> => {
        for (let attempt = 0; ; attempt++) {
          const status =
            i % 2 === 0
              ? (
                  await servers[i % 4 < 2 ? 0 : 1]!.request("POST", "/1.0/instances", {
                    name: `i${i}`,
                    config: { "limits.cpu": "1", "limits.memory": "64MiB" },
                  })
                ).status
              : (
                  await placement[i % 4 < 2 ? 1 : 0]!.callText("PUT", `/allocations/${randomUUID()}`, {
                    allocations: { [roots[i % MEMBERS]!]: { resources: { VCPU: 1 } } },
                    project_id: "p",
                    user_id: "u",
                    consumer_generation: null,
                    consumer_type: "INSTANCE",
                  })
                ).status;
          if (status !== 503 || attempt >= BUSY_RETRIES) return status;
          busy += 1;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      let next = 0;
      try {
        await Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            while (next < 2 * ROOM) statuses.push(await one(next++));
          }),
        );
      } finally {
        for (const client of placement) client.close();
        for (const server of servers) await server.stop();
      }
      const unexpected = statuses.filter((s) => ![201, 204, 409, 507].includes(s));
      expect(unexpected).toEqual([]);
      const won = statuses.filter((s) => s === 201 || s === 204).length;
      const stored = await verifyPostgres(cluster.url, VCPU_PER_MEMBER);
      recordFigures("one ledger, 2 servers on PostgreSQL, creates and Placement claims", {
        requests: statuses.length,
        succeeded: won,
        created: statuses.filter((s) => s === 201).length,
        claimed: statuses.filter((s) => s === 204).length,
        busyRetries: busy,
        vcpusUsed: stored.vcpusUsed,
      });
      expect(stored.overcommitted).toBe(0);
      expect(stored.vcpusUsed).toBe(won);
      expect(won).toBeLessThanOrEqual(ROOM);
      expect(stored.report.violations).toEqual([]);
    });
  },
);
