/**
 * Instance records with their allocations, built as JSON inside PostgreSQL
 * (one round trip, one JSON.parse), in claim order (`seq`). Rows on child
 * providers are the instance's consumer rows (engine instance-consumers.ts),
 * in the instance's own ledger.
 */
import type { InstanceFilter, InstanceRecord } from "@berth/engine";
import type { Tx } from "../connection/pools.js";

const INSTANCE_JSON = `json_build_object(
  'id', i.id, 'project', i.project, 'name', i.name, 'type', i.type, 'location', m.name,
  'forthcoming', i.forthcoming, 'architecture', i.architecture, 'description', i.description,
  'ephemeral', i.ephemeral, 'profiles', i.profiles, 'config', i.config, 'devices', i.devices,
  'instanceType', i.instance_type, 'flavor', i.flavor, 'source', i.source,
  'placementGroup', i.placement_group, 'origin', i.origin, 'createdAt', i.created_at,
  'allocations', coalesce((SELECT jsonb_agg(jsonb_build_object('member', am.name, 'resourceClass', a.resource_class,
                                   'ledger', a.ledger, 'amount', a.amount) ORDER BY a.position)
                           FROM allocations AS a JOIN members AS am ON am.id = a.member_id
                           WHERE a.instance_id = i.id), '[]'::jsonb)
                 || coalesce((SELECT jsonb_agg(jsonb_build_object('member', c.provider_uuid,
                                   'resourceClass', c.resource_class,
                                   'ledger', CASE WHEN i.forthcoming THEN 'forthcoming' ELSE 'used' END,
                                   'amount', c.amount) ORDER BY c.position)
                              FROM consumer_allocations AS c WHERE c.consumer_uuid = i.id), '[]'::jsonb),
  'limitsUsage', json_build_object('cpu', i.limits_cpu, 'memoryBytes', i.limits_memory_bytes,
                                   'diskBytes', i.limits_disk_bytes),
  'decision', i.decision, 'revision', i.revision,
  'secondary', (SELECT sm.name FROM members AS sm WHERE sm.id = i.secondary_id))`;

async function instancesWhere(
  tx: Pick<Tx, "rows">,
  where: string,
  params: unknown[],
  lock = "",
): Promise<InstanceRecord[]> {
  // Locking reads lock the instance rows alone (FOR UPDATE OF i), in id order.
  const order = lock === "" ? "i.seq" : "i.id";
  const rows = await tx.rows<{ r: string }>(
    `SELECT ${INSTANCE_JSON}::text AS r FROM instances AS i JOIN members AS m ON m.id = i.member_id
     ${where} ORDER BY ${order} ${lock}`,
    params,
  );
  return rows.map((row) => {
    const record = JSON.parse(row.r) as InstanceRecord & { secondary?: string | null };
    // A single-member instance has no `secondary` at all, as in the other stores.
    if (record.secondary === null) delete record.secondary;
    return record as InstanceRecord;
  });
}

export function loadInstancesByIds(
  tx: Pick<Tx, "rows">,
  ids: readonly string[],
  options: { lock?: boolean } = {},
): Promise<InstanceRecord[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return instancesWhere(tx, "WHERE i.id = ANY($1::text[])", [ids], options.lock ? "FOR UPDATE OF i" : "");
}

export async function loadInstanceByName(
  tx: Pick<Tx, "rows">,
  project: string,
  name: string,
): Promise<InstanceRecord | undefined> {
  const [found] = await instancesWhere(tx, "WHERE i.project = $1 AND i.name = $2 AND i.name <> ''", [
    project,
    name,
  ]);
  return found;
}

export function listInstances(tx: Pick<Tx, "rows">, filter: InstanceFilter): Promise<InstanceRecord[]> {
  const terms: string[] = [];
  const params: unknown[] = [];
  const add = (term: string, value: unknown) => {
    params.push(value);
    terms.push(term.replace("?", `$${params.length}`));
  };
  if (filter.project !== undefined) add("i.project = ?", filter.project);
  if (filter.location !== undefined) add("m.name = ?", filter.location);
  if (filter.secondary !== undefined)
    add("i.secondary_id = (SELECT id FROM members WHERE name = ?)", filter.secondary);
  if (filter.forthcoming !== undefined) add("i.forthcoming = ?", filter.forthcoming);
  if (filter.placementGroup !== undefined) add("i.placement_group = ?", filter.placementGroup);
  return instancesWhere(tx, terms.length === 0 ? "" : `WHERE ${terms.join(" AND ")}`, params);
}
