import type { InstanceCountRow, PlacementGroupCountRow, ProjectUsageRow, StoreSnapshot } from "@berth/engine";
import { asc, gt } from "drizzle-orm";
import type { Database, RawSql } from "../connection/open-connection.js";
import { groups, placementGroups, projects, projectUsage, resourceClasses } from "../schema/index.js";
import { loadMembers } from "./member-rows.js";
import { readAllMemberUsage } from "./member-usage.js";
import { readConfig } from "./server-config.js";

/**
 * The engine's start-up state, built from aggregates: member rows, the
 * usage rows that already sum allocations, and GROUP BY counts that SQLite
 * answers from covering indexes. No instance row is ever materialized here,
 * so memory grows with members and projects, not with instances.
 */
export async function readSnapshot(db: Database, raw: RawSql): Promise<StoreSnapshot> {
  const membersList = await loadMembers(raw);
  return {
    members: membersList,
    groups: await db.select().from(groups).orderBy(asc(groups.name)),
    projects: await db.select().from(projects).orderBy(asc(projects.name)),
    placementGroups: await db
      .select()
      .from(placementGroups)
      .orderBy(asc(placementGroups.project), asc(placementGroups.name)),
    resourceClasses: (await db.select().from(resourceClasses).orderBy(asc(resourceClasses.name))).map(
      (row) => ({
        name: row.name,
        custom: true as const,
      }),
    ),
    config: await readConfig(db),
    usage: await readAllMemberUsage(raw),
    instanceCounts: await readInstanceCounts(raw),
    placementGroupCounts: await readPlacementGroupCounts(raw),
    projectUsage: await readProjectUsage(db),
    consumerUsage: await readConsumerUsage(raw),
  };
}

/** What Placement consumers hold, per provider and class (non-zero sums). */
async function readConsumerUsage(raw: RawSql): Promise<[string, string, number][]> {
  const rows = await raw.rows(
    `SELECT provider_uuid, resource_class, sum(amount) AS amount FROM consumer_allocations
     GROUP BY provider_uuid, resource_class HAVING sum(amount) != 0`,
  );
  return rows.map((row) => [String(row.provider_uuid), String(row.resource_class), Number(row.amount)]);
}

async function readInstanceCounts(raw: RawSql): Promise<InstanceCountRow[]> {
  // Grouping runs on instances_by_member (member_id, project, forthcoming,
  // type) alone; member names are joined onto the grouped rows, and the
  // result comes back as one JSON document (see MEMBERS_AS_JSON).
  const [row] = await raw.rows(`
    SELECT json_group_array(json_array(member, project, instances, forthcoming, containers, virtual_machines))
      AS counts
    FROM (
      SELECT m.name AS member, c.*
      FROM (
        SELECT member_id, project, count(*) AS instances, sum(forthcoming) AS forthcoming,
               sum(type = 'container') AS containers, sum(type = 'virtual-machine') AS virtual_machines
        FROM instances INDEXED BY instances_by_member
        GROUP BY member_id, project
      ) AS c
      JOIN members AS m ON m.id = c.member_id
      ORDER BY m.id, c.project
    )`);
  const rows = JSON.parse(String(row?.counts ?? "[]")) as [string, string, number, number, number, number][];
  return rows.map(([member, project, instances, forthcoming, containers, virtualMachines]) => ({
    member,
    project,
    instances,
    forthcoming,
    containers,
    virtualMachines,
  }));
}

async function readPlacementGroupCounts(raw: RawSql): Promise<PlacementGroupCountRow[]> {
  const [row] = await raw.rows(`
    SELECT json_group_array(json_array(project, placement_group, member, instances)) AS counts
    FROM (
      SELECT c.project, c.placement_group, m.name AS member, c.instances
      FROM (
        SELECT project, placement_group, member_id, count(*) AS instances
        FROM instances
        WHERE placement_group IS NOT NULL
        GROUP BY project, placement_group, member_id
      ) AS c
      JOIN members AS m ON m.id = c.member_id
      ORDER BY c.project, c.placement_group, m.id
    )`);
  const rows = JSON.parse(String(row?.counts ?? "[]")) as [string, string, string, number][];
  return rows.map(([project, group, member, instances]) => ({ project, group, member, instances }));
}

async function readProjectUsage(db: Database): Promise<ProjectUsageRow[]> {
  return db
    .select()
    .from(projectUsage)
    .where(gt(projectUsage.instances, 0))
    .orderBy(asc(projectUsage.project));
}
