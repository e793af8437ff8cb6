import {
  checkMemberGeneration,
  customClassesOf,
  grandfatheredUsage,
  type InventoryRecord,
  requireMemberRow,
} from "@berth/engine";
import { storedNames } from "../catalogs/stored-names.js";
import { valuesOf } from "../rows/member-side-rows.js";
import { rowLock } from "../runner/row-locks.js";
import type { SqlRunner } from "../runner/runner.js";

/*
 * The rows a member write reads before the engine's write rules judge it,
 * and its inventory rows. Where the dialect has row locks they are taken
 * here: the member's row as a claim locks it, groups and classes
 * share-locked so they cannot go before the write commits.
 */

export interface MemberRow {
  id: number;
  generation: number;
}

/** The member's id and generation, its row locked (`FOR NO KEY UPDATE`: the lock claims take). */
export async function lockMember(
  db: SqlRunner,
  name: string,
  expectedGeneration: number | undefined,
  mode: "FOR UPDATE" | "FOR NO KEY UPDATE" = "FOR NO KEY UPDATE",
): Promise<MemberRow> {
  const [row] = await db.all<MemberRow>(
    `SELECT id, generation FROM members WHERE name = ?${rowLock(db, mode)}`,
    [name],
  );
  const locked = requireMemberRow(name, row && { id: Number(row.id), generation: Number(row.generation) });
  checkMemberGeneration(name, expectedGeneration, locked.generation);
  return locked;
}

/** Which of `names` are stored groups. */
export function foundGroups(db: SqlRunner, names: readonly string[]): Promise<Set<string>> {
  return storedNames(db, "groups", names);
}

/** Which custom classes of `classes` are stored (standard classes are built in). */
export function foundClasses(db: SqlRunner, classes: readonly string[]): Promise<Set<string>> {
  return storedNames(db, "resource_classes", customClassesOf(classes));
}

/** What the member's instances and consumers use, per class (for `grandfatheredUsage`). */
export async function usedByClass(db: SqlRunner, memberId: number): Promise<Map<string, number>> {
  const rows = await db.all<{ resource_class: string; amount: number }>(
    "SELECT resource_class, CAST(sum(amount) AS bigint) AS amount FROM usage WHERE member_id = ? GROUP BY resource_class",
    [memberId],
  );
  return new Map(rows.map((row) => [row.resource_class, Number(row.amount)]));
}

/** The member's inventory rows (a handful), usage above a new total kept as grandfathered. */
export async function writeInventories(
  db: SqlRunner,
  memberId: number,
  records: Record<string, InventoryRecord>,
  used: ReadonlyMap<string, number> = new Map(),
): Promise<void> {
  const rows = Object.entries(records).map(([resourceClass, inventory]) => [
    memberId,
    resourceClass,
    inventory.total,
    inventory.reserved,
    inventory.minUnit,
    inventory.maxUnit,
    inventory.stepSize,
    inventory.allocationRatio,
    inventory.source,
    grandfatheredUsage(inventory, used.get(resourceClass) ?? 0),
  ]);
  if (rows.length === 0) return;
  await db.run(
    `INSERT INTO inventories (member_id, resource_class, total, reserved, min_unit, max_unit, step_size,
       allocation_ratio, source, grandfathered_usage) VALUES ${valuesOf(rows)}`,
    rows.flat(),
  );
}
