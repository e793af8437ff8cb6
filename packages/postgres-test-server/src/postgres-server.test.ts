import { existsSync } from "node:fs";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { emptyTestDatabase } from "./databases.js";
import { type PostgresServer, postgresUnavailable, startPostgres } from "./postgres-server.js";

const unavailable = postgresUnavailable();
if (unavailable !== undefined) it.skip(`PostgreSQL test server tests skipped: ${unavailable}`, () => {});

/** Runs `sql` on the database at `url` over TCP, as the adapter and berthd do. */
async function query<Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(unavailable !== undefined)("a throw-away PostgreSQL server", () => {
  let server: PostgresServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it("starts, answers on a fresh database, empties it, and leaves nothing behind when stopped", async () => {
    server = await startPostgres();
    const url = await server.createDatabase();
    expect(new URL(url).port).toBe(String(server.port));
    expect(await query(url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);

    await query(url, "CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)");
    await query(url, "INSERT INTO notes (body) VALUES ('a'), ('b')");
    await emptyTestDatabase(url);
    // Emptied, not dropped: the table stays and its sequence starts over.
    expect(await query(url, "SELECT count(*)::int AS n FROM notes")).toEqual([{ n: 0 }]);
    expect(await query(url, "INSERT INTO notes (body) VALUES ('c') RETURNING id")).toEqual([{ id: 1 }]);

    const { dataDir } = server;
    expect(existsSync(dataDir)).toBe(true);
    await server.stop();
    expect(existsSync(dataDir)).toBe(false);
    await expect(query(url, "SELECT 1")).rejects.toThrow();
  });
});
