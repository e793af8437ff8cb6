import type { ConsumerRecord, ConsumerTable, ConsumerWrite, ReshapeWrite } from "@berth/engine";
import { listConsumers, loadConsumers, usedSums } from "../consumers/consumer-rows.js";
import { claimConsumers, reshapeConsumers } from "../consumers/consumer-writes.js";
import { reshapeSideOf } from "../members/member-root-writes.js";
import type { SqlTransactions } from "./transactions.js";

/**
 * Placement consumers: a `consumers` row per consumer and its
 * `consumer_allocations` rows. A claim or a reshape is one write
 * transaction of the adapter's, whose member side locks and reads members
 * as an instance claim does, so the two kinds of claim on one member take
 * turns and concurrent writers can never overcommit a provider.
 */
export class SqlConsumers implements ConsumerTable {
  constructor(private readonly tx: SqlTransactions) {}

  async get(uuid: string): Promise<ConsumerRecord | undefined> {
    return (await this.tx.read((db) => loadConsumers(db, "c.uuid = ?", [uuid])))[0];
  }

  list(filter: { provider?: string; project?: string; user?: string } = {}): Promise<ConsumerRecord[]> {
    return this.tx.read((db) => listConsumers(db, filter));
  }

  usage(names?: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return this.tx.read((db) => usedSums(db, names));
  }

  /** Appends a change-feed entry: other servers' models follow the members' shared ledger. */
  claim(writes: readonly ConsumerWrite[]): Promise<ConsumerRecord[]> {
    return this.tx.write((db, side) => claimConsumers(db, writes, reshapeSideOf(db, side)));
  }

  reshape(change: ReshapeWrite): Promise<ConsumerRecord[]> {
    return this.tx.write((db, side) => reshapeConsumers(db, change, reshapeSideOf(db, side)));
  }
}
