/**
 * Placement consumers in SQLite: a `consumers` row per consumer and its
 * `consumer_allocations` rows, read and written by @berth/sql-core's
 * consumer statements. A claim or a reshape runs in one write transaction
 * (BEGIN IMMEDIATE: the file's one writer), so concurrent processes can
 * never overcommit. Every read and write is a handful of statements
 * whatever the number of consumers and rows (lists bound as one JSON text).
 */
import type { ConsumerRecord, ConsumerTable, ConsumerWrite, ReshapeWrite } from "@berth/engine";
import {
  claimConsumers,
  listConsumers,
  loadConsumers,
  type ReshapeSide,
  reshapeConsumers,
  reshapeSideOf,
  type SqlRunner,
  sqliteRunner,
  usedSums,
} from "@berth/sql-core";
import type { Connection, RawSql } from "../connection/open-connection.js";
import { memberSide } from "./member-side.js";

/** What a consumer write does in SQLite's own way: member roots and the feed. */
function writeSide(raw: RawSql): ReshapeSide {
  return reshapeSideOf(sqliteRunner(raw), memberSide(raw));
}

export class SqliteConsumers implements ConsumerTable {
  constructor(
    private readonly connection: Connection,
    /** Called after a claim bumped provider generations (the providers table's read cache). */
    private readonly providersWritten: () => void,
  ) {}

  async get(uuid: string): Promise<ConsumerRecord | undefined> {
    return (await this.read((db) => loadConsumers(db, "c.uuid = ?", [uuid])))[0];
  }

  list(filter: { provider?: string; project?: string; user?: string } = {}): Promise<ConsumerRecord[]> {
    return this.read((db) => listConsumers(db, filter));
  }

  usage(names?: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return this.read((db) => usedSums(db, names));
  }

  claim(writes: readonly ConsumerWrite[]): Promise<ConsumerRecord[]> {
    return this.connection
      .write((_db, raw) => claimConsumers(sqliteRunner(raw), writes, writeSide(raw)), { claim: true })
      .finally(this.providersWritten);
  }

  reshape(change: ReshapeWrite): Promise<ConsumerRecord[]> {
    return this.connection
      .write((_db, raw) => reshapeConsumers(sqliteRunner(raw), change, writeSide(raw)), { claim: true })
      .finally(this.providersWritten);
  }

  private read<R>(work: (db: SqlRunner) => Promise<R>): Promise<R> {
    return this.connection.read((_db, raw) => work(sqliteRunner(raw)));
  }
}
