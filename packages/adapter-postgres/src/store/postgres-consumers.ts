/**
 * Placement consumers in PostgreSQL: a `consumers` row per consumer and its
 * `consumer_allocations` rows, read and written by @berth/sql-core's
 * consumer statements. A claim or a reshape runs in one write transaction
 * that locks the written consumers' rows and the providers the writes touch
 * (FOR UPDATE, in uuid order so two claims never deadlock), then a member
 * root's member row as an instance claim locks it (name order), so the two
 * kinds of claim on one member take turns and concurrent servers can never
 * overcommit a provider.
 */
import type { ConsumerRecord, ConsumerTable, ConsumerWrite, ReshapeWrite } from "@berth/engine";
import {
  claimConsumers,
  listConsumers,
  loadConsumers,
  type ReshapeSide,
  reshapeConsumers,
  reshapeSideOf,
  usedSums,
} from "@berth/sql-core";
import type { Pools, Tx } from "../connection/pools.js";
import { memberSide } from "./member-side.js";
import { txRunner } from "./runners.js";

/** What a consumer write does in PostgreSQL's own way: member locks, member roots, the feed. */
function writeSide(tx: Tx): ReshapeSide {
  return reshapeSideOf(txRunner(tx), memberSide(tx));
}

export class PostgresConsumers implements ConsumerTable {
  constructor(private readonly pools: Pools) {}

  async get(uuid: string): Promise<ConsumerRecord | undefined> {
    return (await this.pools.readTx((tx) => loadConsumers(txRunner(tx), "c.uuid = ?", [uuid])))[0];
  }

  list(filter: { provider?: string; project?: string; user?: string } = {}): Promise<ConsumerRecord[]> {
    return this.pools.readTx((tx) => listConsumers(txRunner(tx), filter));
  }

  usage(names?: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return this.pools.readTx((tx) => usedSums(txRunner(tx), names));
  }

  /** Appends a change-feed entry: other servers' models follow the members' shared ledger. */
  claim(writes: readonly ConsumerWrite[]): Promise<ConsumerRecord[]> {
    return this.pools.writeTx((tx) => claimConsumers(txRunner(tx), writes, writeSide(tx)));
  }

  reshape(change: ReshapeWrite): Promise<ConsumerRecord[]> {
    return this.pools.writeTx((tx) => reshapeConsumers(txRunner(tx), change, writeSide(tx)));
  }
}
