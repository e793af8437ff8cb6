/** Subpath `@berth/adapter-postgres/testing`: a real PostgreSQL server for tests and benchmarks. */

export { createTestDatabase, emptyTestDatabase } from "./databases.js";
export {
  DEFAULT_PG_BIN,
  freeLoopbackPort,
  type PostgresServer,
  type PostgresServerOptions,
  startPostgres,
} from "./postgres-server.js";
