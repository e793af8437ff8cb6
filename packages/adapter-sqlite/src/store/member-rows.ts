import type { InventoryRecord, MemberRecord, NewMember } from "@berth/engine";
import type { InValue, Row } from "@libsql/client";
import { eq } from "drizzle-orm";
import type { Database, RawSql } from "../connection/open-connection.js";
import { type inventories, members } from "../schema/index.js";
import { chunks } from "./chunks.js";
import { inList } from "./sql-lists.js";

const MEMBER_COLUMNS = `id, name, url, architecture, description, failure_domain, roles, config, evacuated,
  last_heartbeat, state, resources, generation, created_at`;

const parseJson = <T>(value: unknown, fallback: T): T =>
  value === null ? fallback : (JSON.parse(String(value)) as T);

/**
 * Loads whole member records (groups, traits, inventories included) with one
 * query per table, whatever the number of members: this is what start-up
 * hydration and member reads share. Plain SQL: with 10,000 members the
 * query builder's per-row mapping would cost more than the reads.
 */
export async function loadMembers(raw: RawSql, filter?: { names: string[] }): Promise<MemberRecord[]> {
  const byId = new Map<number, MemberRecord>();
  const sideTables = async (where: string, args: InValue[]) => {
    for (const row of await raw.rows(
      `SELECT member_id, group_name FROM member_groups ${where} ORDER BY member_id, position`,
      args,
    )) {
      byId.get(Number(row.member_id))?.groups.push(String(row.group_name));
    }
    for (const row of await raw.rows(
      `SELECT member_id, trait FROM member_traits ${where} ORDER BY member_id, trait`,
      args,
    )) {
      byId.get(Number(row.member_id))?.traits.push(String(row.trait));
    }
    for (const row of await raw.rows(
      `SELECT member_id, resource_class, total, reserved, min_unit, max_unit, step_size, allocation_ratio, source
       FROM inventories ${where}`,
      args,
    )) {
      const member = byId.get(Number(row.member_id));
      if (member === undefined) continue;
      member.inventories[String(row.resource_class)] = {
        total: Number(row.total),
        reserved: Number(row.reserved),
        minUnit: Number(row.min_unit),
        maxUnit: Number(row.max_unit),
        stepSize: Number(row.step_size),
        allocationRatio: Number(row.allocation_ratio),
        source: row.source === "derived" ? "derived" : "explicit",
      };
    }
  };
  if (filter === undefined) {
    for (const row of await raw.rows(`SELECT ${MEMBER_COLUMNS} FROM members ORDER BY id`)) {
      byId.set(Number(row.id), memberRecordOf(row));
    }
    // Reading whole side tables is cheaper than a 10,000-long IN list.
    if (byId.size > 0) await sideTables("", []);
    return [...byId.values()];
  }
  for (const part of chunks([...new Set(filter.names)], 500)) {
    const rows = await raw.rows(
      `SELECT ${MEMBER_COLUMNS} FROM members WHERE name IN (${inList(part.length)})`,
      part,
    );
    const ids: number[] = [];
    for (const row of rows) {
      byId.set(Number(row.id), memberRecordOf(row));
      ids.push(Number(row.id));
    }
    if (ids.length > 0) await sideTables(`WHERE member_id IN (${inList(ids.length)})`, ids);
  }
  return [...byId.values()].sort((a, b) => a.joinOrder - b.joinOrder);
}

export async function loadMember(raw: RawSql, name: string): Promise<MemberRecord | undefined> {
  return (await loadMembers(raw, { names: [name] }))[0];
}

function memberRecordOf(row: Row): MemberRecord {
  return {
    name: String(row.name),
    url: String(row.url),
    architecture: String(row.architecture),
    description: String(row.description),
    failureDomain: String(row.failure_domain),
    roles: parseJson<string[]>(row.roles, []),
    groups: [],
    config: parseJson<Record<string, string>>(row.config, {}),
    traits: [],
    evacuated: Number(row.evacuated) === 1,
    lastHeartbeat: row.last_heartbeat === null ? null : String(row.last_heartbeat),
    state: parseJson<Record<string, unknown> | null>(row.state, null),
    resources: parseJson<Record<string, unknown> | null>(row.resources, null),
    inventories: {},
    generation: Number(row.generation),
    joinOrder: Number(row.id),
    createdAt: String(row.created_at),
  };
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
