import {
  conflict,
  consumedOf,
  type InventoryRecord,
  inventoryInUse,
  type MemberPatch,
  type MemberRecord,
  type NewMember,
  notFound,
} from "@berth/engine";
import { inventoryCapacity, isCustomResourceClass } from "@berth/resources";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Database, RawSql } from "../connection/open-connection.js";
import {
  allocations,
  groups,
  instances,
  inventories,
  memberGroups,
  members,
  memberTraits,
  resourceClasses,
  usage,
} from "../schema/index.js";
import { readProviders } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";
import { inventoryRowsOf, loadMember, memberIdOf, memberRowOf } from "./member-rows.js";

export async function createMember(
  db: Database,
  raw: RawSql,
  member: NewMember,
  now: string,
): Promise<MemberRecord> {
  if ((await memberIdOf(db, member.name)) !== undefined) {
    throw conflict(`Cluster member "${member.name}" already exists`);
  }
  await requireGroups(db, member.groups);
  await requireCustomClasses(db, Object.keys(member.inventories));
  const [inserted] = await db
    .insert(members)
    .values({ ...memberRowOf(member), generation: 1, createdAt: now })
    .returning({ id: members.id });
  const id = inserted!.id;
  await writeGroups(db, id, member.groups);
  await writeTraits(db, id, member.traits);
  const inventoryRows = inventoryRowsOf(id, member.inventories);
  if (inventoryRows.length > 0) await db.insert(inventories).values(inventoryRows);
  await appendChanges(raw, [{ kind: "member", name: member.name, joinOrder: id, change: "created" }]);
  return (await loadMember(raw, member.name))!;
}

export async function updateMember(
  db: Database,
  raw: RawSql,
  name: string,
  patch: MemberPatch,
  expectedGeneration: number | undefined,
): Promise<MemberRecord> {
  const current = await requireMemberId(db, name, expectedGeneration);
  if (patch.groups !== undefined) {
    await requireGroups(db, patch.groups);
    await db.delete(memberGroups).where(eq(memberGroups.memberId, current.id));
    await writeGroups(db, current.id, patch.groups);
  }
  if (patch.traits !== undefined) {
    await db.delete(memberTraits).where(eq(memberTraits.memberId, current.id));
    await writeTraits(db, current.id, patch.traits);
  }
  const { groups: _groups, traits, ...columns } = patch;
  const changes: Partial<typeof members.$inferInsert> = { ...columns };
  // Placement's rule: traits are part of what a plan was made against, so
  // changing them moves the generation; heartbeats and state do not.
  if (traits !== undefined) changes.generation = current.generation + 1;
  if (Object.keys(changes).length > 0) {
    await db.update(members).set(changes).where(eq(members.id, current.id));
  }
  // Heartbeats and reported state reach other engines through tick(); any
  // other field is something they must re-read.
  if (Object.keys(patch).some((field) => field !== "lastHeartbeat" && field !== "state")) {
    await appendChanges(raw, [{ kind: "member", name, joinOrder: current.id, change: "updated" }]);
  }
  return (await loadMember(raw, name))!;
}

export async function setInventories(
  db: Database,
  raw: RawSql,
  name: string,
  records: Record<string, InventoryRecord>,
  expectedGeneration: number,
): Promise<MemberRecord> {
  const current = await requireMemberId(db, name, expectedGeneration);
  await requireCustomClasses(db, Object.keys(records));
  // One ledger: the root provider's consumers hold classes as the member's instances do.
  const shared = (await readProviders(raw, [name])).rows.get(name);
  const [first] = shared === undefined ? [] : inventoryInUse(shared, records);
  if (shared !== undefined && first !== undefined) {
    throw conflict(
      `Cannot remove inventory of ${first} from cluster member "${name}": ${consumedOf(shared, first)} allocated`,
      { reason: "inventory_in_use", classes: inventoryInUse(shared, records) },
    );
  }
  const consumed = await db
    .select({ resourceClass: usage.resourceClass, amount: sql<number>`sum(${usage.amount})`.mapWith(Number) })
    .from(usage)
    .where(eq(usage.memberId, current.id))
    .groupBy(usage.resourceClass);
  const usedByClass = new Map(consumed.map((row) => [row.resourceClass, row.amount]));
  await db.delete(inventories).where(eq(inventories.memberId, current.id));
  const rows = inventoryRowsOf(current.id, records).map((row) => {
    const used = usedByClass.get(row.resourceClass) ?? 0;
    return { ...row, grandfatheredUsage: used > inventoryCapacity(records[row.resourceClass]!) ? used : 0 };
  });
  if (rows.length > 0) await db.insert(inventories).values(rows);
  // Conditional on the generation read above: belt and braces for stores
  // whose transactions do not hold the write lock from the start.
  const bumped = await db
    .update(members)
    .set({ generation: current.generation + 1 })
    .where(and(eq(members.id, current.id), eq(members.generation, current.generation)));
  if (bumped.rowsAffected !== 1) throw generationConflict(name, expectedGeneration, current.generation);
  await appendChanges(raw, [{ kind: "member", name, joinOrder: current.id, change: "updated" }]);
  return (await loadMember(raw, name))!;
}

export async function deleteMember(db: Database, raw: RawSql, name: string): Promise<void> {
  const current = await requireMemberId(db, name, undefined);
  const [hosted] = await db
    .select({ name: instances.name })
    .from(instances)
    .where(or(eq(instances.memberId, current.id), eq(instances.secondaryId, current.id)))
    .limit(1);
  if (hosted !== undefined) {
    throw conflict(`Cluster member "${name}" still hosts instances (e.g. "${hosted.name}")`);
  }
  const [allocated] = await db
    .select({ instanceId: allocations.instanceId })
    .from(allocations)
    .where(eq(allocations.memberId, current.id))
    .limit(1);
  if (allocated !== undefined) {
    throw conflict(`Cluster member "${name}" still holds allocations of instance ${allocated.instanceId}`);
  }
  await db.delete(members).where(eq(members.id, current.id));
  await appendChanges(raw, [{ kind: "member", name, joinOrder: current.id, change: "deleted" }]);
}

async function requireMemberId(
  db: Database,
  name: string,
  expectedGeneration: number | undefined,
): Promise<{ id: number; generation: number }> {
  const current = await memberIdOf(db, name);
  if (current === undefined) throw notFound(`Cluster member "${name}" not found`);
  if (expectedGeneration !== undefined && expectedGeneration !== current.generation) {
    throw generationConflict(name, expectedGeneration, current.generation);
  }
  return current;
}

function generationConflict(name: string, expected: number, actual: number) {
  return conflict(`Cluster member "${name}" generation conflict: expected ${expected}, current ${actual}`, {
    reason: "generation",
    member: name,
    expected,
    actual,
  });
}

async function requireGroups(db: Database, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const found = new Set(
    (await db.select({ name: groups.name }).from(groups).where(inArray(groups.name, names))).map(
      (g) => g.name,
    ),
  );
  const missing = names.find((name) => !found.has(name));
  if (missing !== undefined) throw notFound(`Cluster group "${missing}" not found`);
}

/** Standard classes are built in; custom ones must have been created first. */
async function requireCustomClasses(db: Database, classes: string[]): Promise<void> {
  const custom = classes.filter(isCustomResourceClass);
  if (custom.length === 0) return;
  const found = new Set(
    (
      await db
        .select({ name: resourceClasses.name })
        .from(resourceClasses)
        .where(inArray(resourceClasses.name, custom))
    ).map((row) => row.name),
  );
  const missing = custom.find((name) => !found.has(name));
  if (missing !== undefined) throw notFound(`Resource class "${missing}" not found`);
}

async function writeGroups(db: Database, memberId: number, names: string[]): Promise<void> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return;
  await db.insert(memberGroups).values(unique.map((group, position) => ({ memberId, group, position })));
}

async function writeTraits(db: Database, memberId: number, traits: string[]): Promise<void> {
  const unique = [...new Set(traits)];
  if (unique.length === 0) return;
  await db.insert(memberTraits).values(unique.map((trait) => ({ memberId, trait })));
}
