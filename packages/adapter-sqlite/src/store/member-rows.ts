import type { InventoryRecord, MemberRecord, NewMember } from "@berth/engine";
import type { InValue } from "@libsql/client";
import { eq } from "drizzle-orm";
import type { Database, RawSql } from "../connection/open-connection.js";
import { type inventories, members } from "../schema/index.js";
import { chunks } from "./chunks.js";
import { inList } from "./sql-lists.js";

/**
 * Whole member records (groups, traits and inventories included), built as
 * one JSON document inside SQLite. The libSQL client turns every result row
 * into an object property by property, which at 10,000 members and their
 * side-table rows costs seconds; one JSON string parsed by V8 costs
 * milliseconds. Order is join order.
 */
const MEMBERS_AS_JSON = (where: string) => `
  SELECT json_group_array(json_object(
    'name', m.name, 'url', m.url, 'architecture', m.architecture, 'description', m.description,
    'failureDomain', m.failure_domain, 'roles', json(m.roles),
    'groups', (SELECT json_group_array(group_name)
               FROM (SELECT group_name FROM member_groups WHERE member_id = m.id ORDER BY position)),
    'config', json(m.config),
    'traits', (SELECT json_group_array(trait)
               FROM (SELECT trait FROM member_traits WHERE member_id = m.id ORDER BY trait)),
    'evacuated', json(CASE m.evacuated WHEN 0 THEN 'false' ELSE 'true' END),
    'lastHeartbeat', m.last_heartbeat, 'state', json(m.state), 'resources', json(m.resources),
    'inventories', (SELECT json_group_object(resource_class, json_object(
                      'total', total, 'reserved', reserved, 'minUnit', min_unit, 'maxUnit', max_unit,
                      'stepSize', step_size, 'allocationRatio', allocation_ratio, 'source', source))
                    FROM inventories WHERE member_id = m.id),
    'generation', m.generation, 'joinOrder', m.id, 'createdAt', m.created_at
  )) AS members
  FROM (SELECT * FROM members ${where} ORDER BY id) AS m`;

async function membersWhere(raw: RawSql, where: string, args: InValue[]): Promise<MemberRecord[]> {
  const [row] = await raw.rows(MEMBERS_AS_JSON(where), args);
  return JSON.parse(String(row?.members ?? "[]")) as MemberRecord[];
}

/** Every member, or the named ones; always in join order. */
export async function loadMembers(raw: RawSql, filter?: { names: string[] }): Promise<MemberRecord[]> {
  if (filter === undefined) return membersWhere(raw, "", []);
  const found: MemberRecord[] = [];
  for (const part of chunks([...new Set(filter.names)], 500)) {
    found.push(...(await membersWhere(raw, `WHERE name IN (${inList(part.length)})`, part)));
  }
  return found.sort((a, b) => a.joinOrder - b.joinOrder);
}

export async function loadMember(raw: RawSql, name: string): Promise<MemberRecord | undefined> {
  return (await loadMembers(raw, { names: [name] }))[0];
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
