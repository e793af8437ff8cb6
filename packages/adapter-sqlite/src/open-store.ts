import { type ConnectionOptions, openConnection } from "./connection/open-connection.js";
import { parseStoreUrl } from "./connection/store-url.js";
import { applyMigrations } from "./migrations/apply-migrations.js";
import { SqliteStore, type SqliteStoreOptions } from "./store/sqlite-store.js";

/**
 * What `openStore` takes besides the URL: the connection's write-lock wait, the store's feed
 * retention, a remote server's token.
 */
export interface OpenStoreOptions extends ConnectionOptions, SqliteStoreOptions {
  /** Token for a remote libSQL server (also accepted as `?authToken=` in the URL). */
  authToken?: string;
  /** Migrations to apply; defaults to the ones shipped with this package. */
  migrationsFolder?: string;
}

/**
 * Opens (creating if needed) a Berth store and brings its schema up to date.
 *   openStore("/var/lib/berth/berth.db")   a local file: WAL, synchronous=NORMAL, busy_timeout
 *   openStore("file:berth.db")             the same, as a URL
 *   openStore(":memory:")                  a private in-memory database (tests)
 *   openStore("libsql://db.example.com")   a remote libSQL server (also http(s)://, ws(s)://)
 */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<SqliteStore> {
  const location = parseStoreUrl(url, options.authToken);
  const connection = await openConnection(location, options);
  try {
    const report = await connection.exclusive((client) =>
      applyMigrations(client, { local: location.kind !== "remote", folder: options.migrationsFolder }),
    );
    return new SqliteStore(connection, report, options);
  } catch (error) {
    await connection.close();
    throw error;
  }
}
