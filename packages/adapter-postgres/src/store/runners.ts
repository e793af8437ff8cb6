import { pgRunner, type SqlRunner } from "@berth/sql-core";
import type { Pools, Tx } from "../connection/pools.js";

/** @berth/sql-core's statements inside one transaction. */
export function txRunner(tx: Tx): SqlRunner {
  return pgRunner(tx);
}

/**
 * @berth/sql-core's reads as single statements on a read connection (no
 * BEGIN/COMMIT round trips). Reads only: a write belongs in a transaction.
 */
export function readRunner(pools: Pools): SqlRunner {
  return pgRunner({
    rows: (text, params) => pools.query(text, params),
    run: (text) => Promise.reject(new Error(`a write outside a transaction: ${text}`)),
  });
}
