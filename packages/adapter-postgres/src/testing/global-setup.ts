/**
 * vitest globalSetup: one real PostgreSQL server for the whole test run
 * (its admin URL is provided as `postgresAdminUrl`); each test file makes
 * its own database on it. Import it from a package's vitest config:
 *   globalSetup: ["@berth/adapter-postgres/testing/global-setup"] (built) or the source path.
 */
import { startPostgres } from "./postgres-server.js";

interface ProvideContext {
  provide(key: string, value: unknown): void;
}

export default async function setup(project: ProvideContext): Promise<() => Promise<void>> {
  const server = await startPostgres();
  project.provide("postgresAdminUrl", server.url("postgres"));
  return () => server.stop();
}
