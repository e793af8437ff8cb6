/** `@berth/postgres-test-server`: a real, throw-away PostgreSQL server and test databases for tests and benchmarks. */

export { createTestDatabase, emptyTestDatabase } from "./databases.js";
export {
  freeLoopbackPort,
  type PostgresServer,
  type PostgresServerOptions,
  postgresBinDir,
  postgresUnavailable,
  startPostgres,
} from "./postgres-server.js";
