/**
 * Placement consumers in SQLite: a `consumers` row per consumer and its
 * `consumer_allocations` rows. `claim` reads the consumers and the
 * providers' inventories and used sums inside one write transaction
 * (BEGIN IMMEDIATE), calls the engine's `checkConsumerClaim` and writes
 * what it returns, so concurrent processes can never overcommit. A
 * member's root provider is read as the member (engine `sharedLedgerRows`):
 * its inventories, its instances and its consumers, one ledger. The claim
 * appends a change-feed entry so other servers' models follow.
 *
 * The reads and writes it shares with the reshaper are consumer-rows.ts.
 * Every read and write is one statement whatever the number of consumers
 * and rows (lists bound as one JSON text, json-rows.ts): a claim of one
 * consumer is a handful of statements, a batch of fifty the same handful.
 */
import {
  type ConsumerRecord,
  type ConsumerTable,
  type ConsumerWrite,
  checkConsumerClaim,
  consumerProvidersToRead,
  type ReshapeWrite,
} from "@berth/engine";
import type { Connection, RawSql } from "../connection/open-connection.js";
import {
  claimedProviders,
  currentConsumers,
  instanceIdsAmong,
  loadConsumers,
  writeConsumers,
} from "./consumer-rows.js";
import { IN_JSON, jsonParameter } from "./json-rows.js";
import { reshapeInSqlite } from "./sqlite-reshape.js";

/** Used amounts per class of the named providers (all when omitted); each named one is present. */
async function usedSums(
  raw: RawSql,
  names: readonly string[] | undefined,
): Promise<Map<string, Record<string, number>>> {
  const rows =
    names === undefined
      ? await raw.rows(
          `SELECT provider_uuid, resource_class, sum(amount) AS amount FROM consumer_allocations
           GROUP BY provider_uuid, resource_class`,
        )
      : await raw.rows(
          `SELECT provider_uuid, resource_class, sum(amount) AS amount FROM consumer_allocations
           WHERE provider_uuid IN ${IN_JSON} GROUP BY provider_uuid, resource_class`,
          [jsonParameter(names)],
        );
  const out = new Map<string, Record<string, number>>((names ?? []).map((n) => [n, {}]));
  for (const row of rows) {
    const amount = Number(row.amount);
    if (amount === 0) continue;
    const provider = String(row.provider_uuid);
    const entry = out.get(provider) ?? {};
    entry[String(row.resource_class)] = amount;
    out.set(provider, entry);
  }
  return out;
}

export class SqliteConsumers implements ConsumerTable {
  constructor(
    private readonly connection: Connection,
    /** Called after a claim bumped provider generations (the providers table's read cache). */
    private readonly providersWritten: () => void,
  ) {}

  get(uuid: string): Promise<ConsumerRecord | undefined> {
    return this.connection.read(async (_db, raw) => (await loadConsumers(raw, "c.uuid = ?", [uuid]))[0]);
  }

  list(filter: { provider?: string; project?: string; user?: string } = {}): Promise<ConsumerRecord[]> {
    return this.connection.read((_db, raw) =>
      loadConsumers(
        raw,
        `(?1 IS NULL OR c.project_id = ?1) AND (?2 IS NULL OR c.user_id = ?2)
         AND (?3 IS NULL OR c.uuid IN (SELECT consumer_uuid FROM consumer_allocations WHERE provider_uuid = ?3))`,
        [filter.project ?? null, filter.user ?? null, filter.provider ?? null],
      ),
    );
  }

  usage(names?: readonly string[]): Promise<Map<string, Record<string, number>>> {
    return this.connection.read((_db, raw) => usedSums(raw, names));
  }

  claim(writes: readonly ConsumerWrite[]): Promise<ConsumerRecord[]> {
    return this.connection
      .write(
        async (_db, raw) => {
          const uuids = writes.map((w) => w.record.uuid);
          const current = await currentConsumers(raw, uuids);
          const { rows, memberRoots } = await claimedProviders(raw, consumerProvidersToRead(writes, current));
          const checked = checkConsumerClaim(
            writes,
            { consumers: current, providers: rows, instances: await instanceIdsAmong(raw, uuids) },
            new Date().toISOString(),
          );
          const bumped =
            checked.providersChanged.length === 0
              ? []
              : await raw.rows(
                  `UPDATE providers SET generation = generation + 1 WHERE uuid IN ${IN_JSON}
                   RETURNING uuid, generation`,
                  [jsonParameter(checked.providersChanged)],
                );
          await writeConsumers(
            raw,
            uuids,
            checked,
            memberRoots,
            bumped.map((row) => [String(row.uuid), Number(row.generation)] as const),
          );
          return checked.stored;
        },
        { claim: true },
      )
      .finally(this.providersWritten);
  }

  reshape(change: ReshapeWrite): Promise<ConsumerRecord[]> {
    return reshapeInSqlite(this.connection, change).finally(this.providersWritten);
  }
}
