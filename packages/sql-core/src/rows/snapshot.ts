import type { GroupRecord, PlacementGroupRecord, ProjectRecord, StoreSnapshot } from "@berth/engine";
import { jsonSql } from "../runner/json-sql.js";
import { first, type SqlRunner } from "../runner/runner.js";
import { jsonValue } from "../runner/values.js";
import { readMemberUsage } from "./member-usage.js";
import { loadMembers } from "./members.js";
import { readConfig } from "./server-config.js";

interface Aggregates {
  groups: GroupRecord[];
  projects: ProjectRecord[];
  placementGroups: PlacementGroupRecord[];
  resourceClasses: string[];
  counts: [string, string, number, number, number, number][];
  groupCounts: StoreSnapshot["placementGroupCounts"];
  projectUsage: StoreSnapshot["projectUsage"];
  consumerUsage: [string, string, number][];
}

/** The catalog rows and GROUP BY counts of a snapshot, as one JSON document (sums as JSON numbers). */
function aggregatesDocument(db: SqlRunner): string {
  const json = jsonSql(db);
  const agg = (item: string, from: string, orderBy?: string) =>
    json.doc(`(SELECT ${json.agg(item, orderBy)} FROM ${from})`);
  // SQLite groups on instances_by_member (member_id, project, forthcoming, type) alone when told to.
  const byMember = db.dialect === "sqlite" ? "instances INDEXED BY instances_by_member" : "instances";
  const count = (condition: string) => `sum(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
  return `SELECT ${json.object({
    groups: agg(json.object({ name: "name", description: "description" }), "groups", "name"),
    projects: agg(
      json.object({ name: "name", description: "description", config: json.doc("config") }),
      "projects",
      "name",
    ),
    placementGroups: agg(
      json.object({
        project: "project",
        name: "name",
        description: "description",
        policy: "policy",
        rigor: "rigor",
        config: json.doc("config"),
      }),
      "placement_groups",
      "project, name",
    ),
    resourceClasses: agg("name", "resource_classes", "name"),
    counts: agg(
      json.array(["m.name", "c.project", "c.instances", "c.forthcoming", "c.containers", "c.vms"]),
      `(SELECT member_id, project, count(*) AS instances, ${count("forthcoming")} AS forthcoming,
               ${count("type = 'container'")} AS containers, ${count("type = 'virtual-machine'")} AS vms
        FROM ${byMember} GROUP BY member_id, project) AS c JOIN members AS m ON m.id = c.member_id`,
      "m.id, c.project",
    ),
    groupCounts: agg(
      json.object({
        project: "c.project",
        group: "c.placement_group",
        member: "m.name",
        instances: "c.instances",
      }),
      `(SELECT project, placement_group, member_id, count(*) AS instances FROM instances
        WHERE placement_group IS NOT NULL GROUP BY project, placement_group, member_id) AS c
       JOIN members AS m ON m.id = c.member_id`,
      "c.project, c.placement_group, m.id",
    ),
    // Summed over PostgreSQL's shards (SQLite has one row per project).
    projectUsage: agg(
      json.object({
        project: "project",
        instances: "instances",
        containers: "containers",
        virtualMachines: "vms",
        cpu: "cpu",
        memoryBytes: "memory_bytes",
        diskBytes: "disk_bytes",
      }),
      `(SELECT project, sum(instances) AS instances, sum(containers) AS containers, sum(virtual_machines) AS vms,
               sum(cpu) AS cpu, sum(memory_bytes) AS memory_bytes, sum(disk_bytes) AS disk_bytes
        FROM project_usage GROUP BY project) AS p WHERE instances > 0`,
      "project",
    ),
    // What Placement consumers hold, per provider and class (non-zero sums).
    consumerUsage: agg(
      json.array(["provider_uuid", "resource_class", "amount"]),
      `(SELECT provider_uuid, resource_class, sum(amount) AS amount FROM consumer_allocations
        GROUP BY provider_uuid, resource_class HAVING sum(amount) <> 0) AS c`,
    ),
  })} AS doc`;
}

/**
 * The engine's start-up state, built from aggregates in the caller's one
 * consistent read: member rows, the usage rows that already sum
 * allocations, and GROUP BY counts. No instance row is ever materialized,
 * so memory grows with members and projects, not with instances.
 */
export async function readSnapshot(db: SqlRunner): Promise<StoreSnapshot> {
  const members = await loadMembers(db);
  const row = await first(db, aggregatesDocument(db));
  const doc = jsonValue<Aggregates>(row?.doc);
  return {
    members,
    groups: doc.groups,
    projects: doc.projects,
    placementGroups: doc.placementGroups,
    resourceClasses: doc.resourceClasses.map((name) => ({ name, custom: true as const })),
    config: await readConfig(db),
    usage: await readMemberUsage(db, undefined, doc.consumerUsage.length > 0),
    consumerUsage: doc.consumerUsage,
    instanceCounts: doc.counts.map(
      ([member, project, instances, forthcoming, containers, virtualMachines]) => ({
        member,
        project,
        instances,
        forthcoming,
        containers,
        virtualMachines,
      }),
    ),
    placementGroupCounts: doc.groupCounts,
    projectUsage: doc.projectUsage,
  };
}
