/**
 * The engine's start-up state from aggregates, in ONE repeatable-read
 * transaction, together with the change-feed cursor of that same snapshot:
 * every change the snapshot does not include is one the feed will deliver,
 * and none it includes is delivered again. No instance row is materialized.
 */
import {
  type GroupRecord,
  type InstanceCountRow,
  type MemberUsage,
  type PlacementGroupCountRow,
  type PlacementGroupRecord,
  type ProjectRecord,
  type ProjectUsageRow,
  type StoreSnapshot,
  withConsumersUsed,
} from "@berth/engine";
import type { Tx } from "../connection/pools.js";
import { cursorOf } from "./feed-cursor.js";
import { consumersOnMembers } from "./member-consumers.js";
import { loadMembers } from "./member-rows.js";
import { readConfig } from "./server-config.js";

export async function readSnapshot(tx: Tx): Promise<StoreSnapshot & { feedCursor: string }> {
  // First statement of the transaction: its snapshot is the transaction's.
  const [head] = await tx.rows<{ snapshot: string; now: string }>(
    "SELECT pg_current_snapshot()::text AS snapshot, (extract(epoch from now()) * 1000)::bigint::text AS now",
  );
  const members = await loadMembers(tx);
  const [catalog] = await tx.rows<{ doc: string }>(`SELECT json_build_object(
      'groups', coalesce((SELECT json_agg(json_build_object('name', name, 'description', description) ORDER BY name) FROM groups), '[]'),
      'projects', coalesce((SELECT json_agg(json_build_object('name', name, 'description', description, 'config', config) ORDER BY name) FROM projects), '[]'),
      'placementGroups', coalesce((SELECT json_agg(json_build_object('project', project, 'name', name, 'description', description,
          'policy', policy, 'rigor', rigor) ORDER BY project, name) FROM placement_groups), '[]'),
      'resourceClasses', coalesce((SELECT json_agg(name ORDER BY name) FROM resource_classes), '[]'),
      'usage', coalesce((SELECT json_agg(json_build_array(m.name, u.resource_class, u.ledger, u.amount))
          FROM usage AS u JOIN members AS m ON m.id = u.member_id WHERE u.amount <> 0), '[]'),
      'counts', coalesce((SELECT json_agg(json_build_array(m.name, c.project, c.instances, c.forthcoming, c.containers, c.vms) ORDER BY m.id, c.project)
          FROM (SELECT member_id, project, count(*) AS instances, count(*) FILTER (WHERE forthcoming) AS forthcoming,
                       count(*) FILTER (WHERE type = 'container') AS containers,
                       count(*) FILTER (WHERE type = 'virtual-machine') AS vms
                FROM instances GROUP BY member_id, project) AS c JOIN members AS m ON m.id = c.member_id), '[]'),
      'groupCounts', coalesce((SELECT json_agg(json_build_array(c.project, c.placement_group, m.name, c.instances) ORDER BY c.project, c.placement_group, m.id)
          FROM (SELECT project, placement_group, member_id, count(*) AS instances FROM instances
                WHERE placement_group IS NOT NULL GROUP BY project, placement_group, member_id) AS c
          JOIN members AS m ON m.id = c.member_id), '[]'),
      'projectUsage', coalesce((SELECT json_agg(json_build_array(project, instances, containers, vms, cpu, memory_bytes, disk_bytes) ORDER BY project)
          FROM (SELECT project, sum(instances) AS instances, sum(containers) AS containers, sum(virtual_machines) AS vms,
                       sum(cpu) AS cpu, sum(memory_bytes) AS memory_bytes, sum(disk_bytes) AS disk_bytes
                FROM project_usage GROUP BY project) AS p WHERE instances > 0), '[]')
    )::text AS doc`);
  const doc = JSON.parse(catalog!.doc) as {
    groups: GroupRecord[];
    projects: ProjectRecord[];
    placementGroups: PlacementGroupRecord[];
    resourceClasses: string[];
    usage: [string, string, "used" | "forthcoming", number][];
    counts: [string, string, number, number, number, number][];
    groupCounts: [string, string, string, number][];
    projectUsage: [string, number, number, number, number, number, number][];
  };
  const usage = new Map<string, MemberUsage>();
  for (const member of members) usage.set(member.name, { member: member.name, used: {}, forthcoming: {} });
  for (const [member, resourceClass, ledger, amount] of doc.usage) {
    const row = usage.get(member);
    if (row !== undefined) row[ledger][resourceClass] = Number(amount);
  }
  // One ledger: the members' root providers' Placement consumers are in use too.
  for (const [member, used] of await consumersOnMembers(
    tx,
    members.map((m) => m.name),
  )) {
    const row = usage.get(member);
    if (row !== undefined) usage.set(member, withConsumersUsed(row, used));
  }
  const consumerUsage = (
    await tx.rows<{ provider_uuid: string; resource_class: string; amount: string | number }>(
      `SELECT provider_uuid, resource_class, sum(amount)::bigint AS amount FROM consumer_allocations
       GROUP BY provider_uuid, resource_class HAVING sum(amount) <> 0`,
    )
  ).map((row): [string, string, number] => [row.provider_uuid, row.resource_class, Number(row.amount)]);
  const instanceCounts: InstanceCountRow[] = doc.counts.map(
    ([member, project, instances, forthcoming, containers, virtualMachines]) => ({
      member,
      project,
      instances,
      forthcoming,
      containers,
      virtualMachines,
    }),
  );
  const placementGroupCounts: PlacementGroupCountRow[] = doc.groupCounts.map(
    ([project, group, member, instances]) => ({ project, group, member, instances }),
  );
  const projectUsage: ProjectUsageRow[] = doc.projectUsage.map(
    ([project, instances, containers, virtualMachines, cpu, memoryBytes, diskBytes]) => ({
      project,
      instances: Number(instances),
      containers: Number(containers),
      virtualMachines: Number(virtualMachines),
      cpu: Number(cpu),
      memoryBytes: Number(memoryBytes),
      diskBytes: Number(diskBytes),
    }),
  );
  return {
    members,
    groups: doc.groups,
    projects: doc.projects,
    placementGroups: doc.placementGroups,
    resourceClasses: doc.resourceClasses.map((name) => ({ name, custom: true as const })),
    config: await readConfig(tx),
    usage: [...usage.values()],
    consumerUsage,
    instanceCounts,
    placementGroupCounts,
    projectUsage,
    feedCursor: cursorOf(head!.snapshot, Number(head!.now)),
  };
}
