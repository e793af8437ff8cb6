/**
 * The consumer rows a Placement write reads and writes in SQLite, one
 * piece for both writers (a consumer claim, sqlite-consumers.ts, and the
 * reshaper, sqlite-reshape.ts), inside their write transaction: the
 * written consumers as stored, the named providers as the claim rules
 * judge them (a member's root provider read as the member, engine
 * `sharedLedgerRows`: one ledger for instances and consumers), and the
 * written consumers' rows with the change-feed entry other servers'
 * models follow. Each is one statement whatever the number of rows (lists
 * bound as one JSON text, json-rows.ts).
 */
import {
  type AllocationRow,
  type CheckedConsumerClaim,
  type ConsumerRecord,
  consumerClaimEntry,
  isMemberRoot,
  type ReshapeProviderRows,
  withMemberRows,
} from "@berth/engine";
import type { Inventory } from "@berth/resources";
import type { RawSql } from "../connection/open-connection.js";
import { readProviders } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";
import { IN_JSON, jsonParameter, selectJsonRows } from "./json-rows.js";

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
export async function loadConsumers(
  raw: RawSql,
  where: string,
  args: (string | null)[],
): Promise<ConsumerRecord[]> {
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

/** The written consumers as stored now, by uuid. */
export async function currentConsumers(
  raw: RawSql,
  uuids: readonly string[],
): Promise<Map<string, ConsumerRecord>> {
  return new Map(
    (await loadConsumers(raw, `c.uuid IN ${IN_JSON}`, [jsonParameter(uuids)])).map((c) => [c.uuid, c]),
  );
}

/** The named providers that exist, as the claim rules judge them, and which of them are member roots. */
export async function claimedProviders(
  raw: RawSql,
  names: readonly string[],
): Promise<{
  rows: Map<string, ReshapeProviderRows>;
  /** Member root providers among them, by uuid: the member's name. */
  memberRoots: Map<string, string>;
}> {
  const rows = new Map<string, ReshapeProviderRows>();
  const memberRoots = new Map<string, string>();
  if (names.length === 0) return { rows, memberRoots };
  const found = await raw.rows(
    `SELECT p.uuid, p.name, p.generation, p.inventories,
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
      generation: Number(p.generation),
    });
  }
  // One ledger: a member's root provider has the member's inventories and instances.
  if (memberRoots.size > 0) {
    const members = (await readProviders(raw, [...memberRoots.values()])).rows;
    withMemberRows(rows, memberRoots, members);
  }
  return { rows, memberRoots };
}

/**
 * Replaces the written consumers' rows by the checked ones and appends the
 * claim's change-feed entry (engine `consumerClaimEntry`): its usage on
 * member roots is keyed by the member, so other servers' models follow.
 */
export async function writeConsumers(
  raw: RawSql,
  uuids: readonly string[],
  checked: Pick<CheckedConsumerClaim, "stored" | "usageChanges">,
  memberRoots: ReadonlyMap<string, string>,
  bumped: readonly (readonly [string, number])[],
): Promise<void> {
  // Every written consumer's rows are replaced (delete cascades to its allocations).
  await raw.run(`DELETE FROM consumers WHERE uuid IN ${IN_JSON}`, [jsonParameter(uuids)]);
  await insertConsumers(raw, checked.stored);
  await appendChanges(raw, [consumerClaimEntry(checked, (uuid) => memberRoots.get(uuid), bumped)]);
}

/** Inserts consumers and their rows (none stored under their uuids now). */
export async function insertConsumers(raw: RawSql, stored: readonly ConsumerRecord[]): Promise<void> {
  if (stored.length === 0) return;
  await raw.run(
    `INSERT INTO consumers (uuid, project_id, user_id, consumer_type, generation, created_at, updated_at)
     ${selectJsonRows(7)}`,
    [
      jsonParameter(
        stored.map((r) => [
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
  const held = stored.flatMap((r) =>
    r.allocations.map((row, position) => [r.uuid, row.member, row.resourceClass, row.amount, position]),
  );
  if (held.length > 0)
    await raw.run(
      `INSERT INTO consumer_allocations (consumer_uuid, provider_uuid, resource_class, amount, position)
       ${selectJsonRows(5)}`,
      [jsonParameter(held)],
    );
}

/** Which of the written uuids are instances' ids (their consumers are written by instance claims only). */
export async function instanceIdsAmong(raw: RawSql, uuids: readonly string[]): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const rows = await raw.rows(`SELECT id FROM instances WHERE id IN ${IN_JSON}`, [jsonParameter(uuids)]);
  return new Set(rows.map((row) => String(row.id)));
}
