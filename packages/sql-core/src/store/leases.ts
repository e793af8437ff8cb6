/**
 * Named leases in the database (the engine's Store.acquireLease):
 * acquiring or renewing is one statement that succeeds when the lease is
 * free, expired, or already ours. A holder that stops renewing (dead, or
 * stopped) loses the lease after `ttlMs`; another server then takes it
 * over. In PostgreSQL expiry is measured on the database's clock, so
 * servers on different hosts never disagree about it; a SQLite file's
 * writers share one host, and its expiry is that host's milliseconds.
 */
import type { SqlRunner } from "../runner/runner.js";

export async function acquireLease(
  db: SqlRunner,
  name: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  const ttl = Math.max(1, Math.round(ttlMs));
  const pg = db.dialect === "pg";
  const now = Date.now();
  const changed = await db.run(
    `INSERT INTO leases (name, holder, expires_at)
     VALUES (?, ?, ${pg ? "clock_timestamp() + ? * interval '1 millisecond'" : "? + ?"})
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
     WHERE leases.holder = excluded.holder OR leases.expires_at < ${pg ? "clock_timestamp()" : "?"}`,
    pg ? [name, holder, ttl] : [name, holder, now, ttl, now],
  );
  return changed === 1;
}

export async function releaseLease(db: SqlRunner, name: string, holder: string): Promise<void> {
  await db.run("DELETE FROM leases WHERE name = ? AND holder = ?", [name, holder]);
}
