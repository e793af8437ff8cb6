import type { InventoryRecord, MemberRecord, NewMember } from "@berth/engine";
import {
  loadMember as loadSharedMember,
  loadMembers as loadSharedMembers,
  sqliteRunner,
} from "@berth/sql-core";
import { eq } from "drizzle-orm";
import type { Database, RawSql } from "../connection/open-connection.js";
import { type inventories, members } from "../schema/index.js";

/** For the member writes, on their transaction: @berth/sql-core's `loadMember`. */
export function loadMember(raw: RawSql, name: string): Promise<MemberRecord | undefined> {
  return loadSharedMember(sqliteRunner(raw), name);
}

/** For the member writes, on their transaction: @berth/sql-core's `loadMembers` (join order). */
export function loadMembers(raw: RawSql, names: readonly string[]): Promise<MemberRecord[]> {
  return loadSharedMembers(sqliteRunner(raw), names);
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
