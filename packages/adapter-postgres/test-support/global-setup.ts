/**
 * vitest globalSetup: one real PostgreSQL server for the whole test run
 * (its admin URL is provided as `postgresAdminUrl`); each test file makes
 * its own database on it. Where no server can be started (the binaries are
 * absent), `postgresUnavailable` says why instead, and the tests skip with
 * that message (`describeWithPostgres`).
 */
import { postgresUnavailable, startPostgres } from "@berth/postgres-test-server";

interface ProvideContext {
  provide(key: string, value: unknown): void;
}

export default async function setup(project: ProvideContext): Promise<(() => Promise<void>) | undefined> {
  const unavailable = postgresUnavailable();
  project.provide("postgresUnavailable", unavailable ?? "");
  project.provide("postgresAdminUrl", "");
  if (unavailable !== undefined) {
    process.stderr.write(`\nPostgreSQL tests skipped: ${unavailable}\n`);
    return undefined;
  }
  const server = await startPostgres();
  project.provide("postgresAdminUrl", server.url("postgres"));
  return () => server.stop();
}
