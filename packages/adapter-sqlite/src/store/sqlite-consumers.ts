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
 * Every read and write is one statement whatever the number of consumers
 * and rows (lists bound as one JSON text, json-rows.ts): a claim of one
 * consumer is a handful of statements, a batch of fifty the same handful.
 */
import {
  type AllocationRow,
  type ConsumerRecord,
  type ConsumerTable,
  type ConsumerWrite,
  checkConsumerClaim,
  consumerClaimEntry,
  consumerProvidersToRead,
  isMemberRoot,
  type ProviderRows,
  type ReshapeWrite,
} from "@berth/engine";
import type { Inventory } from "@berth/resources";
import type { Connection, RawSql } from "../connection/open-connection.js";
import { readProviders } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";
import { IN_JSON, jsonParameter, selectJsonRows } from "./json-rows.js";
import { reshapeInSqlite } from "./sqlite-reshape.js";

type Head = [
  uuid: string,
  project: string,
  user: string,
  type: string | null,
  generation: number,
  created: string,
  updated: string,
];
type Held = [provider: string, resourceClass: string, amount: number];

/** The consumers a WHERE clause over `c` (the consumers table) selects, with their rows, as one JSON document. */
async function loadConsumers(raw: RawSql, where: string, args: (string | null)[]): Promise<ConsumerRecord[]> {
  const [row] = await raw.rows(
    `SELECT json_group_array(json_array(c.uuid, c.project_id, c.user_id, c.consumer_type, c.generation,
       c.created_at, c.updated_at,
       (SELECT json_group_array(json_array(a.provider_uuid, a.resource_class, a.amount))
        FROM (SELECT provider_uuid, resource_class, amount FROM consumer_allocations
              WHERE consumer_uuid = c.uuid ORDER BY position) AS a))) AS doc
     FROM (SELECT * FROM consumers AS c WHERE ${where} ORDER BY c.created_at) AS c`,
    args,
  );
  const heads = JSON.parse(String(row?.doc ?? "[]")) as [...Head, Held[]][];
  return heads.map(([uuid, projectId, userId, consumerType, generation, createdAt, updatedAt, held]) => ({
    uuid,
    projectId,
    userId,
    consumerType,
    generation,
    allocations: held.map(
      ([member, resourceClass, amount]): AllocationRow => ({ member, resourceClass, ledger: "used", amount }),
    ),
    createdAt,
    updatedAt,
  }));
}

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
          const current = new Map(
            (await loadConsumers(raw, `c.uuid IN ${IN_JSON}`, [jsonParameter(uuids)])).map((c) => [
              c.uuid,
              c,
            ]),
          );
          const names = consumerProvidersToRead(writes, current);
          const rows = new Map<string, ProviderRows>();
          /** Member root providers among them, by uuid: the member's name. */
          const memberRoots = new Map<string, string>();
          if (names.length > 0) {
            const found = await raw.rows(
              `SELECT p.uuid, p.name, p.inventories,
                 (SELECT json_group_object(resource_class, amount) FROM
                   (SELECT resource_class, sum(amount) AS amount FROM consumer_allocations
                    WHERE provider_uuid = p.uuid GROUP BY resource_class HAVING sum(amount) != 0)) AS used
               FROM providers AS p WHERE p.uuid IN ${IN_JSON}`,
              [jsonParameter(names)],
            );
            for (const p of found) {
              const uuid = String(p.uuid);
              const name = String(p.name);
              if (isMemberRoot(uuid, name)) memberRoots.set(uuid, name);
              rows.set(uuid, {
                inventories: JSON.parse(String(p.inventories)) as Record<string, Inventory>,
                used: JSON.parse(String(p.used ?? "{}")) as Record<string, number>,
                forthcoming: {},
              });
            }
            // One ledger: a member's root provider has the member's inventories and instances.
            if (memberRoots.size > 0) {
              const members = (await readProviders(raw, [...memberRoots.values()])).rows;
              for (const [uuid, name] of memberRoots) {
                const member = members.get(name);
                if (member !== undefined) rows.set(uuid, member);
              }
            }
          }
          const checked = checkConsumerClaim(
            writes,
            { consumers: current, providers: rows },
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
          // Every written consumer's rows are replaced (delete cascades to its allocations).
          await raw.run(`DELETE FROM consumers WHERE uuid IN ${IN_JSON}`, [jsonParameter(uuids)]);
          if (checked.stored.length > 0) {
            await raw.run(
              `INSERT INTO consumers (uuid, project_id, user_id, consumer_type, generation, created_at, updated_at)
               ${selectJsonRows(7)}`,
              [
                jsonParameter(
                  checked.stored.map((r) => [
                    r.uuid,
                    r.projectId,
                    r.userId,
                    r.consumerType,
                    r.generation,
                    r.createdAt,
                    r.updatedAt,
                  ]),
                ),
              ],
            );
            const held = checked.stored.flatMap((r) =>
              r.allocations.map((row, position) => [
                r.uuid,
                row.member,
                row.resourceClass,
                row.amount,
                position,
              ]),
            );
            if (held.length > 0)
              await raw.run(
                `INSERT INTO consumer_allocations (consumer_uuid, provider_uuid, resource_class, amount, position)
                 ${selectJsonRows(5)}`,
                [jsonParameter(held)],
              );
          }
          await appendChanges(raw, [
            consumerClaimEntry(
              checked,
              (uuid) => memberRoots.get(uuid),
              bumped.map((row) => [String(row.uuid), Number(row.generation)] as const),
            ),
          ]);
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
