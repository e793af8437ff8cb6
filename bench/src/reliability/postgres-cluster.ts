/**
 * A real PostgreSQL server (Debian's binaries, a temp folder, a loopback
 * port) with a small cluster in a fresh database, made through the engine
 * as berthd would, and an admin token in it: what the multi-server tests
 * start several berthd processes on.
 */
import { openPostgresStore } from "@berth/adapter-postgres";
import { Engine, type MemberInput } from "@berth/engine";
import { type PostgresServer, postgresUnavailable, startPostgres } from "@berth/postgres-test-server";
import { issueToken } from "@berth/server";
import { BENCH_OFFLINE_THRESHOLD_S } from "../cluster/shape.js";

export interface PostgresCluster {
  url: string;
  token: string;
}

export { type PostgresServer, startPostgres };

/** Why the PostgreSQL tests cannot run here ("" when they can): the tests skip with this message. */
export const POSTGRES_UNAVAILABLE = postgresUnavailable() ?? "";
if (POSTGRES_UNAVAILABLE !== "")
  process.stderr.write(`\nPostgreSQL tests skipped: ${POSTGRES_UNAVAILABLE}\n`);

export async function postgresCluster(
  server: PostgresServer,
  members: number,
  inventories: NonNullable<MemberInput["inventories"]>,
): Promise<PostgresCluster> {
  const url = await server.createDatabase();
  const store = await openPostgresStore(url);
  try {
    const engine = await Engine.open({ store });
    await engine.config.set({ "cluster.offline_threshold": BENCH_OFFLINE_THRESHOLD_S });
    for (let i = 1; i <= members; i++) await engine.members.create({ name: `node${i}`, inventories });
    const { secret } = await issueToken(store.tokens, "admin", { admin: true });
    return { url, token: secret };
  } finally {
    await store.close();
  }
}

/** What the database holds after a storm: `check()`, instances and VCPU usage. */
export async function verifyPostgres(url: string, vcpuPerMember: number) {
  const store = await openPostgresStore(url);
  try {
    const report = await store.check();
    const instances = await store.listInstances({});
    const usage = await store.memberUsage((await store.listMembers()).map((m) => m.name));
    const vcpusUsed = usage.reduce((sum, row) => sum + (row.used.VCPU ?? 0) + (row.forthcoming.VCPU ?? 0), 0);
    const overcommitted = usage.filter(
      (row) => (row.used.VCPU ?? 0) + (row.forthcoming.VCPU ?? 0) > vcpuPerMember,
    ).length;
    return { report, instances, vcpusUsed, overcommitted };
  } finally {
    await store.close();
  }
}
