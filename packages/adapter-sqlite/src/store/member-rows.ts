import type { InventoryRecord, MemberRecord, NewMember } from "@berth/engine";
import { asc, eq, inArray } from "drizzle-orm";
import type { Database } from "../connection/open-connection.js";
import { inventories, memberGroups, members, memberTraits } from "../schema/index.js";

type MemberRow = typeof members.$inferSelect;

/**
 * Loads whole member records (groups, traits, inventories included) with one
 * query per table, whatever the number of members: this is what start-up
 * hydration and member reads share.
 */
export async function loadMembers(db: Database, filter?: { names: string[] }): Promise<MemberRecord[]> {
  const rows =
    filter === undefined
      ? await db.select().from(members).orderBy(asc(members.id))
      : filter.names.length === 0
        ? []
        : await db.select().from(members).where(inArray(members.name, filter.names)).orderBy(asc(members.id));
  if (rows.length === 0) return [];
  // With a filter the member list is short; without one, reading whole side
  // tables is cheaper than a huge IN list.
  const ids = filter === undefined ? undefined : rows.map((row) => row.id);
  const [groupRows, traitRows, inventoryRows] = await Promise.all([
    ids === undefined
      ? db.select().from(memberGroups).orderBy(asc(memberGroups.position))
      : db
          .select()
          .from(memberGroups)
          .where(inArray(memberGroups.memberId, ids))
          .orderBy(asc(memberGroups.position)),
    ids === undefined
      ? db.select().from(memberTraits).orderBy(asc(memberTraits.trait))
      : db
          .select()
          .from(memberTraits)
          .where(inArray(memberTraits.memberId, ids))
          .orderBy(asc(memberTraits.trait)),
    ids === undefined
      ? db.select().from(inventories)
      : db.select().from(inventories).where(inArray(inventories.memberId, ids)),
  ]);
  const byId = new Map<number, MemberRecord>();
  for (const row of rows) byId.set(row.id, memberRecordOf(row));
  for (const row of groupRows) byId.get(row.memberId)?.groups.push(row.group);
  for (const row of traitRows) byId.get(row.memberId)?.traits.push(row.trait);
  for (const row of inventoryRows) {
    const member = byId.get(row.memberId);
    if (member === undefined) continue;
    member.inventories[row.resourceClass] = {
      total: row.total,
      reserved: row.reserved,
      minUnit: row.minUnit,
      maxUnit: row.maxUnit,
      stepSize: row.stepSize,
      allocationRatio: row.allocationRatio,
      source: row.source,
    };
  }
  return [...byId.values()];
}

export async function loadMember(db: Database, name: string): Promise<MemberRecord | undefined> {
  return (await loadMembers(db, { names: [name] }))[0];
}

export async function memberIdOf(
  db: Database,
  name: string,
): Promise<{ id: number; generation: number } | undefined> {
  const [row] = await db
    .select({ id: members.id, generation: members.generation })
    .from(members)
    .where(eq(members.name, name));
  return row;
}

function memberRecordOf(row: MemberRow): MemberRecord {
  return {
    name: row.name,
    url: row.url,
    architecture: row.architecture,
    description: row.description,
    failureDomain: row.failureDomain,
    roles: row.roles,
    groups: [],
    config: row.config,
    traits: [],
    evacuated: row.evacuated,
    lastHeartbeat: row.lastHeartbeat,
    state: row.state,
    resources: row.resources,
    inventories: {},
    generation: row.generation,
    joinOrder: row.id,
    createdAt: row.createdAt,
  };
}

export function memberRowOf(
  member: NewMember,
): Omit<typeof members.$inferInsert, "createdAt" | "generation"> {
  return {
    name: member.name,
    url: member.url,
    architecture: member.architecture,
    description: member.description,
    failureDomain: member.failureDomain,
    roles: member.roles,
    config: member.config,
    evacuated: member.evacuated,
    lastHeartbeat: member.lastHeartbeat,
    state: member.state,
    resources: member.resources,
  };
}

export function inventoryRowsOf(
  memberId: number,
  records: Record<string, InventoryRecord>,
): (typeof inventories.$inferInsert)[] {
  return Object.entries(records).map(([resourceClass, inventory]) => ({
    memberId,
    resourceClass,
    total: inventory.total,
    reserved: inventory.reserved,
    minUnit: inventory.minUnit,
    maxUnit: inventory.maxUnit,
    stepSize: inventory.stepSize,
    allocationRatio: inventory.allocationRatio,
    source: inventory.source,
  }));
}
