/**
 * Named leases in the database: acquiring or renewing is one statement that
 * succeeds when the lease is free, expired, or already ours. Expiry is
 * measured on the database's clock, so servers on different hosts never
 * disagree about it. A holder that stops renewing (dead, or stopped)
 * loses the lease after `ttlMs`; another server then takes it over.
 */
import type { Pools } from "../connection/pools.js";

export async function acquireLease(
  pools: Pools,
  name: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  return pools.writeTx(async (tx) => {
    const rows = await tx.rows(
      `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE leases.holder = excluded.holder OR leases.expires_at < clock_timestamp()
       RETURNING holder`,
      [name, holder, Math.max(1, Math.round(ttlMs))],
    );
    return rows.length === 1;
  });
}

export async function releaseLease(pools: Pools, name: string, holder: string): Promise<void> {
  await pools.writeTx((tx) => tx.run("DELETE FROM leases WHERE name = $1 AND holder = $2", [name, holder]));
}
