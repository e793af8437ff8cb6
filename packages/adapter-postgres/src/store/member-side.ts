import { type MemberSide, pgRunner, type SqlTransactions } from "@berth/sql-core";
import type { Pools, Tx } from "../connection/pools.js";
import { lockMembers } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";

/**
 * @berth/sql-core's member writes in PostgreSQL: members' rows locked in
 * name order as claims lock them (claim-reads.ts), so the two kinds of
 * write on one member take turns.
 */
export function memberSide(tx: Tx): MemberSide {
  return {
    lockMembers: (names) => lockMembers(tx, names),
    append: (entries) => appendChanges(tx, entries),
  };
}

/** @berth/sql-core's tables on the pools: a read on a read connection, a write on a write connection. */
export function transactions(pools: Pools): SqlTransactions {
  return {
    read: (work) => pools.readTx((tx) => work(pgRunner(tx))),
    write: (work) => pools.writeTx((tx) => work(pgRunner(tx), memberSide(tx))),
  };
}
