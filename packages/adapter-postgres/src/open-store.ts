import { type PoolOptions, Pools } from "./connection/pools.js";
import { parsePostgresUrl } from "./connection/store-url.js";
import { applyMigrations } from "./migrations/apply-migrations.js";
import { PostgresStore, type PostgresStoreOptions } from "./store/postgres-store.js";

/**
 * What `openPostgresStore` takes besides the URL: pools and timeouts, the store's own settings,
 * and where the migrations are.
 */
export interface OpenPostgresStoreOptions extends PoolOptions, PostgresStoreOptions {
  /** Migrations to apply; defaults to the ones shipped with this package. */
  migrationsFolder?: string;
}

/**
 * Opens a Berth store on a PostgreSQL database and brings its schema up to
 * date (several servers may do this at once):
 *   openPostgresStore("postgres://berth@db.example.com:5432/berth")
 */
export async function openPostgresStore(
  url: string,
  options: OpenPostgresStoreOptions = {},
): Promise<PostgresStore> {
  const pools = new Pools(parsePostgresUrl(url), {
    ...options,
    ...(options.onConnectionError === undefined ? {} : { onIdleError: options.onConnectionError }),
  });
  try {
    const report = await applyMigrations(pools, options.migrationsFolder);
    return new PostgresStore(pools, report, options);
  } catch (error) {
    await pools.close();
    throw error;
  }
}
