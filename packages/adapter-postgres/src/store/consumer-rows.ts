/**
 * The consumer rows a Placement write reads and writes in PostgreSQL, one
 * piece for both writers (a consumer claim, postgres-consumers.ts, and the
 * reshaper, postgres-reshape.ts), inside their write transaction: the
 * written consumers (locked FOR UPDATE in uuid order), the named providers
 * (locked the same way) as the claim rules judge them (a member's root
 * provider read as the member, engine `sharedLedgerRows`, its member row
 * locked as an instance claim locks it, so the two kinds of claim on one
 * member take turns), and the written consumers' rows with the change-feed
 * entry other servers' models follow.
 */
import {
  type AllocationRow,
  type CheckedConsumerClaim,
  type ConsumerRecord,
  consumerClaimEntry,
  isMemberRoot,
  type ProviderRows,
  placementProviderRows,
  type ReshapeProviderRows,
  withMemberRows,
} from "@berth/engine";
import type { Inventory } from "@berth/resources";
import type { Tx } from "../connection/pools.js";
import { lockMembers, readProviders } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";

export interface ConsumerRow {
  uuid: string;
  project_id: string;
  user_id: string;
  consumer_type: string | null;
  generation: number;
  created_at: string;
  updated_at: string;
}

interface AllocationDbRow {
  consumer_uuid: string;
  provider_uuid: string;
  resource_class: string;
  amount: number;
}

export const CONSUMER_COLUMNS =
  "uuid, project_id, user_id, consumer_type, generation, created_at, updated_at";

export async function withAllocations(tx: Tx, heads: ConsumerRow[]): Promise<ConsumerRecord[]> {
  if (heads.length === 0) return [];
  const rows = await tx.rows<AllocationDbRow>(
    `SELECT consumer_uuid, provider_uuid, resource_class, amount FROM consumer_allocations
     WHERE consumer_uuid = ANY($1::text[]) ORDER BY consumer_uuid, position`,
    [heads.map((h) => h.uuid)],
  );
  const byConsumer = new Map<string, AllocationRow[]>();
  for (const row of rows) {
    const list = byConsumer.get(row.consumer_uuid) ?? [];
    list.push({
      member: row.provider_uuid,
      resourceClass: row.resource_class,
      ledger: "used",
      amount: Number(row.amount),
    });
    byConsumer.set(row.consumer_uuid, list);
  }
  return heads.map((h) => ({
    uuid: h.uuid,
    projectId: h.project_id,
    userId: h.user_id,
    consumerType: h.consumer_type,
    generation: h.generation,
    allocations: byConsumer.get(h.uuid) ?? [],
    createdAt: h.created_at,
    updatedAt: h.updated_at,
  }));
}

/** Used amounts per class of the named providers (all when omitted); each named one is present. */
export async function usedSums(
  tx: Tx,
  names: readonly string[] | undefined,
): Promise<Map<string, Record<string, number>>> {
  const rows = await tx.rows<{ provider_uuid: string; resource_class: string; amount: number }>(
    `SELECT provider_uuid, resource_class, sum(amount)::bigint AS amount FROM consumer_allocations
     WHERE $1::text[] IS NULL OR provider_uuid = ANY($1::text[])
     GROUP BY provider_uuid, resource_class`,
    [names === undefined ? null : [...names]],
  );
  const out = new Map<string, Record<string, number>>((names ?? []).map((n) => [n, {}]));
  for (const row of rows) {
    const amount = Number(row.amount);
    if (amount === 0) continue;
    const entry = out.get(row.provider_uuid) ?? {};
    entry[row.resource_class] = amount;
    out.set(row.provider_uuid, entry);
  }
  return out;
}

/** The written consumers as stored now, by uuid, locked until the transaction ends. */
export async function lockedConsumers(
  tx: Tx,
  uuids: readonly string[],
): Promise<Map<string, ConsumerRecord>> {
  const heads = await tx.rows<ConsumerRow>(
    `SELECT ${CONSUMER_COLUMNS} FROM consumers WHERE uuid = ANY($1::text[]) ORDER BY uuid FOR UPDATE`,
    [[...uuids]],
  );
  return new Map((await withAllocations(tx, heads)).map((c) => [c.uuid, c]));
}

/** The named providers that exist, locked and as the claim rules judge them, and which are member roots. */
export async function claimedProviders(
  tx: Tx,
  names: readonly string[],
): Promise<{
  rows: Map<string, ReshapeProviderRows>;
  /** Member root providers among them, by uuid: the member's name. */
  memberRoots: Map<string, string>;
}> {
  const rows = new Map<string, ReshapeProviderRows>();
  const memberRoots = new Map<string, string>();
  if (names.length === 0) return { rows, memberRoots };
  const found = await tx.rows<{
    uuid: string;
    name: string;
    generation: number;
    inventories: Record<string, Inventory>;
  }>(
    "SELECT uuid, name, generation, inventories FROM providers WHERE uuid = ANY($1::text[]) ORDER BY uuid FOR UPDATE",
    [[...names]],
  );
  const used = await usedSums(tx, names);
  for (const p of found) {
    if (isMemberRoot(p.uuid, p.name)) memberRoots.set(p.uuid, p.name);
    rows.set(p.uuid, {
      inventories: p.inventories,
      used: used.get(p.uuid) ?? {},
      forthcoming: {},
      generation: Number(p.generation),
    });
  }
  // One ledger: a member's root provider has the member's inventories and instances. Its
  // member row is locked after the providers, in name order, as an instance claim locks it.
  if (memberRoots.size > 0) {
    const members = (
      await readProviders(
        tx,
        (await lockMembers(tx, [...memberRoots.values()])).map((member) => member.name),
      )
    ).providers;
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
  tx: Tx,
  uuids: readonly string[],
  checked: Pick<CheckedConsumerClaim, "stored" | "usageChanges">,
  memberRoots: ReadonlyMap<string, string>,
  bumped: readonly (readonly [string, number])[],
): Promise<void> {
  // Every written consumer's rows are replaced (delete cascades to its allocations).
  await tx.run("DELETE FROM consumers WHERE uuid = ANY($1::text[])", [[...uuids]]);
  await insertConsumers(tx, checked.stored);
  await appendChanges(tx, [consumerClaimEntry(checked, (uuid) => memberRoots.get(uuid), bumped)]);
}

/** Inserts consumers and their rows (none stored under their uuids now). */
export async function insertConsumers(tx: Tx, stored: readonly ConsumerRecord[]): Promise<void> {
  for (const record of stored) {
    await tx.run(`INSERT INTO consumers (${CONSUMER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      record.uuid,
      record.projectId,
      record.userId,
      record.consumerType,
      record.generation,
      record.createdAt,
      record.updatedAt,
    ]);
    if (record.allocations.length > 0)
      await tx.run(
        `INSERT INTO consumer_allocations (consumer_uuid, provider_uuid, resource_class, amount, position)
         SELECT $1, a.provider_uuid, a.resource_class, a.amount, a.position - 1
         FROM unnest($2::text[], $3::text[], $4::bigint[]) WITH ORDINALITY
           AS a(provider_uuid, resource_class, amount, position)`,
        [
          record.uuid,
          record.allocations.map((row) => row.member),
          record.allocations.map((row) => row.resourceClass),
          record.allocations.map((row) => row.amount),
        ],
      );
  }
}

/** Which of the written uuids are instances' ids (their consumers are written by instance claims only). */
export async function instanceIdsAmong(tx: Tx, uuids: readonly string[]): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const rows = await tx.rows<{ id: string }>("SELECT id FROM instances WHERE id = ANY($1::text[])", [
    [...uuids],
  ]);
  return new Set(rows.map((row) => row.id));
}

/**
 * Placement providers that are not members (children of members' trees),
 * locked by the claim's lookup, as an instance claim's rules judge them
 * (engine `placementProviderRows`: what their consumers hold is "used").
 */
export async function readPlacementProviders(
  tx: Tx,
  uuids: readonly string[],
  into: Map<string, ProviderRows>,
): Promise<void> {
  if (uuids.length === 0) return;
  const found = await tx.rows<{ uuid: string; inventories: Record<string, Inventory> }>(
    "SELECT uuid, inventories FROM providers WHERE uuid = ANY($1::text[])",
    [[...uuids]],
  );
  const used = await usedSums(tx, uuids);
  for (const p of found) into.set(p.uuid, placementProviderRows(p, used.get(p.uuid) ?? {}));
}
