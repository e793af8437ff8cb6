/**
 * Whole member records (groups, traits and inventories included), built as
 * one JSON document inside PostgreSQL: one round trip and one JSON.parse,
 * whatever the number of members. Order is join order.
 */
import type { MemberRecord } from "@berth/engine";
import type { Tx } from "../connection/pools.js";

const MEMBER_JSON = `json_build_object(
    'name', m.name, 'url', m.url, 'architecture', m.architecture, 'description', m.description,
    'failureDomain', m.failure_domain, 'roles', m.roles,
    'groups', coalesce((SELECT json_agg(group_name ORDER BY position) FROM member_groups WHERE member_id = m.id), '[]'),
    'config', m.config,
    'traits', coalesce((SELECT json_agg(trait ORDER BY trait) FROM member_traits WHERE member_id = m.id), '[]'),
    'evacuated', m.evacuated, 'lastHeartbeat', m.last_heartbeat, 'state', m.state, 'resources', m.resources,
    'inventories', coalesce((SELECT json_object_agg(resource_class, json_build_object(
        'total', total, 'reserved', reserved, 'minUnit', min_unit, 'maxUnit', max_unit,
        'stepSize', step_size, 'allocationRatio', allocation_ratio, 'source', source))
      FROM inventories WHERE member_id = m.id), '{}'),
    'generation', m.generation, 'joinOrder', m.id, 'createdAt', m.created_at)`;

export async function loadMembers(tx: Pick<Tx, "rows">, names?: readonly string[]): Promise<MemberRecord[]> {
  const where = names === undefined ? "" : "WHERE m.name = ANY($1::text[])";
  const [row] = await tx.rows<{ members: string }>(
    `SELECT coalesce(json_agg(${MEMBER_JSON} ORDER BY m.id), '[]')::text AS members FROM members AS m ${where}`,
    names === undefined ? [] : [names],
  );
  return JSON.parse(row?.members ?? "[]") as MemberRecord[];
}

export async function loadMember(tx: Pick<Tx, "rows">, name: string): Promise<MemberRecord | undefined> {
  return (await loadMembers(tx, [name]))[0];
}
