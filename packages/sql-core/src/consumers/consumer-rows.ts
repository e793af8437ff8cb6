/**
 * The consumer rows a Placement write reads and writes, one piece for both
 * writers (a consumer claim and the reshaper) and both dialects, inside
 * their write transaction: the written consumers as stored (locked where
 * the dialect has row locks), the named providers as the claim rules judge
 * them, and the written consumers' rows. Lists are bound as one JSON text.
 */
import {
  type AllocationRow,
  type ConsumerRecord,
  isMemberRoot,
  type ProviderRows,
  placementProviderRows,
  type ReshapeProviderRows,
  withMemberRows,
} from "@berth/engine";
import type { Inventory } from "@berth/resources";
import { jsonSql } from "../runner/json-sql.js";
import { inList, listParam } from "../runner/lists.js";
import type { SqlParam, SqlRunner } from "../runner/runner.js";
import { jsonValue } from "../runner/values.js";

type ConsumerDocument = Omit<ConsumerRecord, "allocations"> & {
  held: Omit<AllocationRow, "ledger">[];
};

/**
 * The consumers a WHERE clause over `c` selects, with their rows, one JSON
 * value each: by creation, or locked (FOR UPDATE, uuid order) where the
 * dialect has row locks.
 */
export async function loadConsumers(
  db: SqlRunner,
  where: string,
  params: readonly SqlParam[],
  options: { lock?: boolean } = {},
): Promise<ConsumerRecord[]> {
  const json = jsonSql(db);
  const lock = options.lock === true && db.dialect === "pg";
  const document = json.object({
    uuid: "c.uuid",
    projectId: "c.project_id",
    userId: "c.user_id",
    consumerType: "c.consumer_type",
    generation: "c.generation",
    createdAt: "c.created_at",
    updatedAt: "c.updated_at",
    held: json.doc(
      `(SELECT ${json.agg(
        json.object({ member: "a.provider_uuid", resourceClass: "a.resource_class", amount: "a.amount" }),
        "a.position",
      )} FROM consumer_allocations AS a WHERE a.consumer_uuid = c.uuid)`,
    ),
  });
  const rows = await db.all(
    `SELECT ${document} AS r FROM consumers AS c WHERE ${where}
     ORDER BY ${lock ? "c.uuid FOR UPDATE" : "c.created_at, c.uuid"}`,
    params,
  );
  return rows.map((row) => {
    const { held, ...head } = jsonValue<ConsumerDocument>(row.r);
    return { ...head, allocations: held.map((h) => ({ ...h, ledger: "used" as const })) };
  });
}

/** The written consumers as stored now, by uuid (locked until the transaction ends, where it can be). */
export async function currentConsumers(
  db: SqlRunner,
  uuids: readonly string[],
): Promise<Map<string, ConsumerRecord>> {
  const found = await loadConsumers(db, `c.uuid IN ${inList(db)}`, [listParam(uuids)], { lock: true });
  return new Map(found.map((c) => [c.uuid, c]));
}

/** Consumers by project, user and provider (each optional), by creation. */
export function listConsumers(
  db: SqlRunner,
  filter: { provider?: string; project?: string; user?: string },
): Promise<ConsumerRecord[]> {
  const terms = ["1 = 1"];
  const params: SqlParam[] = [];
  if (filter.project !== undefined) terms.push("c.project_id = ?") && params.push(filter.project);
  if (filter.user !== undefined) terms.push("c.user_id = ?") && params.push(filter.user);
  if (filter.provider !== undefined) {
    terms.push("c.uuid IN (SELECT consumer_uuid FROM consumer_allocations WHERE provider_uuid = ?)");
    params.push(filter.provider);
  }
  return loadConsumers(db, terms.join(" AND "), params);
}

/** Used amounts per class of the named providers (all when omitted); each named one is present. */
export async function usedSums(
  db: SqlRunner,
  names?: readonly string[],
): Promise<Map<string, Record<string, number>>> {
  const where = names === undefined ? "" : `WHERE uuid IN ${inList(db)}`;
  const rows = await db.all(
    `SELECT uuid, ${usedColumn(db)} AS used FROM providers AS p ${where}`,
    names === undefined ? [] : [listParam(names)],
  );
  const out = new Map<string, Record<string, number>>((names ?? []).map((n) => [n, {}]));
  for (const row of rows) out.set(String(row.uuid), jsonValue(row.used));
  return out;
}

/**
 * Placement providers that are not members (children of members' trees),
 * as an instance claim's rules judge them (engine `placementProviderRows`:
 * what their consumers hold is "used"), set in `into` (names of none skipped).
 */
export async function readPlacementProviders(
  db: SqlRunner,
  uuids: readonly string[],
  into: Map<string, ProviderRows>,
): Promise<void> {
  if (uuids.length === 0) return;
  const found = await db.all(
    `SELECT uuid, inventories, ${usedColumn(db)} AS used FROM providers AS p WHERE uuid IN ${inList(db)}`,
    [listParam(uuids)],
  );
  for (const p of found) {
    const inventories = jsonValue<Record<string, Inventory>>(p.inventories);
    into.set(String(p.uuid), placementProviderRows({ inventories }, jsonValue(p.used)));
  }
}

/**
 * What the consumers of provider `p` hold per class, as a JSON object
 * (classes summing to 0 left out): read with the provider's row, in the
 * same statement (one fewer per claim than a separate `usedSums`).
 */
function usedColumn(db: SqlRunner): string {
  return `(SELECT ${jsonSql(db).objectAgg("s.resource_class", "s.amount")} FROM (SELECT resource_class,
    sum(amount) AS amount FROM consumer_allocations WHERE provider_uuid = p.uuid GROUP BY resource_class
    HAVING sum(amount) <> 0) AS s)`;
}

/**
 * The named providers that exist (locked in uuid order where the dialect
 * can), as the claim rules judge them, and which are member roots: a
 * member's root provider is read as its member (engine `sharedLedgerRows`:
 * one ledger for instances and consumers) through `memberRows`, where each
 * adapter reads, and locks in its own order, the members' rows.
 */
export async function claimedProviders(
  db: SqlRunner,
  names: readonly string[],
  memberRows: (members: string[]) => Promise<ReadonlyMap<string, ProviderRows>>,
): Promise<{
  rows: Map<string, ReshapeProviderRows>;
  /** Member root providers among them, by uuid: the member's name. */
  memberRoots: Map<string, string>;
}> {
  const rows = new Map<string, ReshapeProviderRows>();
  const memberRoots = new Map<string, string>();
  if (names.length === 0) return { rows, memberRoots };
  // PostgreSQL locks the rows, then sums in a statement of its own: one that waited on a lock still
  // sees the allocations as they were when it began (READ COMMITTED), not those committed meanwhile.
  const pg = db.dialect === "pg";
  const found = await db.all(
    `SELECT uuid, name, generation, inventories${pg ? "" : `, ${usedColumn(db)} AS used`} FROM providers AS p
     WHERE uuid IN ${inList(db)}${pg ? " ORDER BY uuid FOR UPDATE" : ""}`,
    [listParam(names)],
  );
  const locked = pg ? await usedSums(db, names) : undefined;
  for (const p of found) {
    const uuid = String(p.uuid);
    const name = String(p.name);
    if (isMemberRoot(uuid, name)) memberRoots.set(uuid, name);
    rows.set(uuid, {
      inventories: jsonValue<Record<string, Inventory>>(p.inventories),
      used: locked?.get(uuid) ?? jsonValue(p.used),
      forthcoming: {},
      generation: Number(p.generation),
    });
  }
  if (memberRoots.size > 0) withMemberRows(rows, memberRoots, await memberRows([...memberRoots.values()]));
  return { rows, memberRoots };
}

/**
 * Replaces the written consumers' rows by `stored`: deletes those stored now (`existing`, read in
 * this transaction; the delete cascades to their allocations), none when all are new.
 */
export async function replaceConsumers(
  db: SqlRunner,
  existing: readonly string[],
  stored: readonly ConsumerRecord[],
): Promise<void> {
  if (existing.length > 0)
    await db.run(`DELETE FROM consumers WHERE uuid IN ${inList(db)}`, [listParam(existing)]);
  await insertConsumers(db, stored);
}

/** Inserts consumers and their rows (none stored under their uuids now). */
export async function insertConsumers(db: SqlRunner, stored: readonly ConsumerRecord[]): Promise<void> {
  for (const r of stored) {
    await db.run(
      `INSERT INTO consumers (uuid, project_id, user_id, consumer_type, generation, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [r.uuid, r.projectId, r.userId, r.consumerType, r.generation, r.createdAt, r.updatedAt],
    );
  }
  const held = stored.flatMap((r) =>
    r.allocations.map((row, position) => [r.uuid, row.member, row.resourceClass, row.amount, position]),
  );
  if (held.length === 0) return;
  const rowsOf =
    db.dialect === "sqlite"
      ? "SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4 FROM json_each(?)"
      : `SELECT v ->> 0, v ->> 1, v ->> 2, CAST(v ->> 3 AS bigint), CAST(v ->> 4 AS integer)
         FROM jsonb_array_elements(CAST(? AS jsonb)) AS v`;
  await db.run(
    `INSERT INTO consumer_allocations (consumer_uuid, provider_uuid, resource_class, amount, position) ${rowsOf}`,
    [listParam(held)],
  );
}

/** Which of the written uuids are instances' ids (their consumers are written by instance claims only). */
export async function instanceIdsAmong(db: SqlRunner, uuids: readonly string[]): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const rows = await db.all(`SELECT id FROM instances WHERE id IN ${inList(db)}`, [listParam(uuids)]);
  return new Set(rows.map((row) => String(row.id)));
}

/** Bumps the providers' generations; their new generations. */
export async function bumpGenerations(
  db: SqlRunner,
  uuids: readonly string[],
): Promise<(readonly [string, number])[]> {
  if (uuids.length === 0) return [];
  const rows = await db.all(
    `UPDATE providers SET generation = generation + 1 WHERE uuid IN ${inList(db)} RETURNING uuid, generation`,
    [listParam(uuids)],
  );
  return rows.map((row) => [String(row.uuid), Number(row.generation)] as const);
}
