import type { InstanceCountRow, PlacementGroupCountRow, ProjectUsageRow, StoreSnapshot } from "@berth/engine";
import { asc, gt, sql } from "drizzle-orm";
import type { Database, RawSql } from "../connection/open-connection.js";
import { groups, placementGroups, projects, projectUsage, resourceClasses } from "../schema/index.js";
import { loadMembers } from "./member-rows.js";
import { readMemberUsage } from "./member-usage.js";
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
    usage: await readMemberUsage(raw),
    instanceCounts: await readInstanceCounts(db),
    placementGroupCounts: await readPlacementGroupCounts(db),
    projectUsage: await readProjectUsage(db),
  };
}

async function readInstanceCounts(db: Database): Promise<InstanceCountRow[]> {
  // Grouping happens on instances_by_member (member_id, project, forthcoming,
  // type) alone; member names are joined onto the few grouped rows after.
  const result = await db.all<InstanceCountRow>(sql`
    SELECT m.name AS member, c.project AS project, c.instances AS instances, c.forthcoming AS forthcoming,
           c.containers AS containers, c.virtual_machines AS virtualMachines
    FROM (
      SELECT member_id, project, count(*) AS instances, sum(forthcoming) AS forthcoming,
             sum(type = 'container') AS containers, sum(type = 'virtual-machine') AS virtual_machines
      FROM instances INDEXED BY instances_by_member
      GROUP BY member_id, project
    ) AS c
    JOIN members AS m ON m.id = c.member_id
    ORDER BY m.id, c.project`);
  return result.map((row) => ({
    member: String(row.member),
    project: String(row.project),
    instances: Number(row.instances),
    forthcoming: Number(row.forthcoming),
    containers: Number(row.containers),
    virtualMachines: Number(row.virtualMachines),
  }));
}

async function readPlacementGroupCounts(db: Database): Promise<PlacementGroupCountRow[]> {
  const result = await db.all<PlacementGroupCountRow>(sql`
    SELECT c.project AS project, c.placement_group AS "group", m.name AS member, c.instances AS instances
    FROM (
      SELECT project, placement_group, member_id, count(*) AS instances
      FROM instances
      WHERE placement_group IS NOT NULL
      GROUP BY project, placement_group, member_id
    ) AS c
    JOIN members AS m ON m.id = c.member_id
    ORDER BY c.project, c.placement_group, m.id`);
  return result.map((row) => ({
    project: String(row.project),
    group: String(row.group),
    member: String(row.member),
    instances: Number(row.instances),
  }));
}

async function readProjectUsage(db: Database): Promise<ProjectUsageRow[]> {
  return db
    .select()
    .from(projectUsage)
    .where(gt(projectUsage.instances, 0))
    .orderBy(asc(projectUsage.project));
}
