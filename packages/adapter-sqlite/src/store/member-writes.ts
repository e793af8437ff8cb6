import {
  checkGroupMembers,
  checkMemberCreate,
  checkMemberDelete,
  checkMemberInventories,
  checkMemberUpdate,
  customClassesOf,
  grandfatheredUsage,
  type InventoryRecord,
  type MemberPatch,
  type MemberRecord,
  memberEntry,
  memberGenerationConflict,
  type NewMember,
  requireMemberRow,
} from "@berth/engine";
import { sqliteRunner, writeGroupMembers } from "@berth/sql-core";
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
import { inventoryRowsOf, loadMember, loadMembers, memberIdOf, memberRowOf } from "./member-rows.js";

/**
 * Member writes inside the caller's write transaction: each reads the rows
 * the engine's write rules (write-rules/) judge, calls them, and writes
 * what they return.
 */

export async function createMember(
  db: Database,
  raw: RawSql,
  member: NewMember,
  now: string,
): Promise<MemberRecord> {
  const checked = checkMemberCreate(member, {
    taken: (await memberIdOf(db, member.name)) !== undefined,
    groups: await foundGroups(db, member.groups),
    customClasses: await foundClasses(db, Object.keys(member.inventories)),
  });
  const [inserted] = await db
    .insert(members)
    .values({ ...memberRowOf(checked), generation: 1, createdAt: now })
    .returning({ id: members.id });
  const id = inserted!.id;
  await writeGroups(db, id, checked.groups);
  await writeTraits(db, id, checked.traits);
  const inventoryRows = inventoryRowsOf(id, checked.inventories);
  if (inventoryRows.length > 0) await db.insert(inventories).values(inventoryRows);
  await appendChanges(raw, [memberEntry(member.name, id, "created")]);
  return (await loadMember(raw, member.name))!;
}

export async function updateMember(
  db: Database,
  raw: RawSql,
  name: string,
  patch: MemberPatch,
  expectedGeneration: number | undefined,
  expectedFields?: MemberPatch,
): Promise<MemberRecord> {
  const current = requireMemberRow(name, await memberIdOf(db, name));
  const stored = expectedFields === undefined ? {} : await loadMember(raw, name);
  const checked = checkMemberUpdate(
    name,
    patch,
    { generation: expectedGeneration, fields: expectedFields },
    {
      member: { ...stored, generation: current.generation, joinOrder: current.id },
      groups: await foundGroups(db, patch.groups ?? []),
    },
  );
  const { groups: newGroups, traits: newTraits, ...columns } = checked.patch;
  if (newGroups !== undefined) {
    await db.delete(memberGroups).where(eq(memberGroups.memberId, current.id));
    await writeGroups(db, current.id, newGroups);
  }
  if (newTraits !== undefined) {
    await db.delete(memberTraits).where(eq(memberTraits.memberId, current.id));
    await writeTraits(db, current.id, newTraits);
  }
  const changes: Partial<typeof members.$inferInsert> = { ...columns };
  if (checked.generation !== current.generation) changes.generation = checked.generation;
  if (Object.keys(changes).length > 0) {
    await db.update(members).set(changes).where(eq(members.id, current.id));
  }
  if (checked.entry !== undefined) await appendChanges(raw, [checked.entry]);
  return (await loadMember(raw, name))!;
}

export async function setGroupMembers(
  db: Database,
  raw: RawSql,
  group: string,
  wanted: readonly string[],
): Promise<MemberRecord[]> {
  const holders = await raw.rows(
    "SELECT m.name FROM member_groups mg JOIN members m ON m.id = mg.member_id WHERE mg.group_name = ?",
    [group],
  );
  const checked = checkGroupMembers(group, wanted, {
    groupExists: (await foundGroups(db, [group])).has(group),
    members: await loadMembers(raw, [...wanted, ...holders.map((row) => String(row.name))]),
  });
  return writeGroupMembers(sqliteRunner(raw), checked, (entries) => appendChanges(raw, entries));
}

export async function setInventories(
  db: Database,
  raw: RawSql,
  name: string,
  records: Record<string, InventoryRecord>,
  expectedGeneration: number,
): Promise<MemberRecord> {
  const current = requireMemberRow(name, await memberIdOf(db, name));
  // One ledger: the root provider's consumers hold classes as the member's instances do.
  const ledger = (await readProviders(raw, [name])).rows.get(name);
  const checked = checkMemberInventories(name, records, expectedGeneration, {
    member: { generation: current.generation, joinOrder: current.id },
    customClasses: await foundClasses(db, Object.keys(records)),
    ledger: ledger ?? { inventories: {}, used: {}, forthcoming: {} },
  });
  const consumed = await db
    .select({ resourceClass: usage.resourceClass, amount: sql<number>`sum(${usage.amount})`.mapWith(Number) })
    .from(usage)
    .where(eq(usage.memberId, current.id))
    .groupBy(usage.resourceClass);
  const usedByClass = new Map(consumed.map((row) => [row.resourceClass, row.amount]));
  await db.delete(inventories).where(eq(inventories.memberId, current.id));
  const rows = inventoryRowsOf(current.id, records).map((row) => ({
    ...row,
    grandfatheredUsage: grandfatheredUsage(
      records[row.resourceClass]!,
      usedByClass.get(row.resourceClass) ?? 0,
    ),
  }));
  if (rows.length > 0) await db.insert(inventories).values(rows);
  // Conditional on the generation read above: belt and braces for stores
  // whose transactions do not hold the write lock from the start.
  const bumped = await db
    .update(members)
    .set({ generation: checked.generation })
    .where(and(eq(members.id, current.id), eq(members.generation, current.generation)));
  if (bumped.rowsAffected !== 1) throw memberGenerationConflict(name, expectedGeneration, current.generation);
  await appendChanges(raw, [checked.entry]);
  return (await loadMember(raw, name))!;
}

export async function deleteMember(db: Database, raw: RawSql, name: string): Promise<void> {
  const current = requireMemberRow(name, await memberIdOf(db, name));
  const [hosted] = await db
    .select({ name: instances.name })
    .from(instances)
    .where(or(eq(instances.memberId, current.id), eq(instances.secondaryId, current.id)))
    .limit(1);
  const [allocated] = await db
    .select({ instanceId: allocations.instanceId })
    .from(allocations)
    .where(eq(allocations.memberId, current.id))
    .limit(1);
  checkMemberDelete(name, { hostedInstance: hosted?.name, allocatedInstance: allocated?.instanceId });
  await db.delete(members).where(eq(members.id, current.id));
  await appendChanges(raw, [memberEntry(name, current.id, "deleted")]);
}

/** Which of `names` are stored groups. */
async function foundGroups(db: Database, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  return new Set(
    (
      await db
        .select({ name: groups.name })
        .from(groups)
        .where(inArray(groups.name, [...names]))
    ).map((g) => g.name),
  );
}

/** Which custom classes of `classes` are stored (standard classes are built in). */
async function foundClasses(db: Database, classes: readonly string[]): Promise<Set<string>> {
  const custom = customClassesOf(classes);
  if (custom.length === 0) return new Set();
  return new Set(
    (
      await db
        .select({ name: resourceClasses.name })
        .from(resourceClasses)
        .where(inArray(resourceClasses.name, custom))
    ).map((row) => row.name),
  );
}

async function writeGroups(db: Database, memberId: number, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await db.insert(memberGroups).values(names.map((group, position) => ({ memberId, group, position })));
}

async function writeTraits(db: Database, memberId: number, traits: string[]): Promise<void> {
  if (traits.length === 0) return;
  await db.insert(memberTraits).values(traits.map((trait) => ({ memberId, trait })));
}
