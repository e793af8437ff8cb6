/** Subpath `@berth/adapter-postgres/testing`: a real PostgreSQL server for tests and benchmarks. */

export { createTestDatabase, emptyTestDatabase } from "./databases.js";
export {
  freeLoopbackPort,
  type PostgresServer,
  type PostgresServerOptions,
  postgresBinDir,
  postgresUnavailable,
  startPostgres,
} from "./postgres-server.js";
