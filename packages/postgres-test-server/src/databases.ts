/**
 * Databases on a test server: a fresh one per test file, emptied between
 * tests (every table truncated, sequences restarted) instead of created
 * anew, which costs a fraction of CREATE DATABASE.
 */
import pg from "pg";

let counter = 0;

/** Creates an empty database on the server `adminUrl` points at; answers its URL. */
export async function createTestDatabase(adminUrl: string, name?: string): Promise<string> {
  counter += 1;
  const database = name ?? `t_${process.pid}_${counter}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Empties every table of the public schema (the migrations stay applied). */
export async function emptyTestDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    if (rows.length > 0)
      await client.query(`TRUNCATE ${rows.map((row) => row.name).join(", ")} RESTART IDENTITY CASCADE`);
  } finally {
    await client.end();
  }
}
