import type { MemberRecord } from "@berth/engine";
import { jsonSql } from "../runner/json-sql.js";
import { inList, listParam } from "../runner/lists.js";
import { first, type SqlRunner } from "../runner/runner.js";
import { jsonValue } from "../runner/values.js";

/** Whole member records (groups, traits and inventories included) as one JSON document (see JsonSql). */
function membersDocument(db: SqlRunner, where: string): string {
  const json = jsonSql(db);
  const member = json.object({
    name: "m.name",
    url: "m.url",
    architecture: "m.architecture",
    description: "m.description",
    failureDomain: "m.failure_domain",
    roles: json.doc("m.roles"),
    groups: json.doc(
      `(SELECT ${json.agg("group_name", "position")} FROM member_groups WHERE member_id = m.id)`,
    ),
    config: json.doc("m.config"),
    traits: json.doc(`(SELECT ${json.agg("trait", "trait")} FROM member_traits WHERE member_id = m.id)`),
    evacuated: json.bool("m.evacuated"),
    lastHeartbeat: "m.last_heartbeat",
    state: json.doc("m.state"),
    resources: json.doc("m.resources"),
    inventories: json.doc(
      `(SELECT ${json.objectAgg(
        "resource_class",
        json.object({
          total: "total",
          reserved: "reserved",
          minUnit: "min_unit",
          maxUnit: "max_unit",
          stepSize: "step_size",
          allocationRatio: "allocation_ratio",
          source: "source",
        }),
      )} FROM inventories WHERE member_id = m.id)`,
    ),
    generation: "m.generation",
    joinOrder: "m.id",
    createdAt: "m.created_at",
  });
  return `SELECT ${json.agg(member)} AS members FROM members AS m ${where}`;
}

/**
 * Every member, or the named ones; always in join order, sorted here: ordered inside the
 * aggregate, SQLite sorted the finished JSON objects (10,000 members: 60-100 ms of a start-up).
 */
export async function loadMembers(db: SqlRunner, names?: readonly string[]): Promise<MemberRecord[]> {
  const row =
    names === undefined
      ? await first(db, membersDocument(db, ""))
      : await first(db, membersDocument(db, `WHERE m.name IN ${inList(db)}`), [listParam(names)]);
  return jsonValue<MemberRecord[]>(row?.members ?? "[]").sort((a, b) => a.joinOrder - b.joinOrder);
}

export async function loadMember(db: SqlRunner, name: string): Promise<MemberRecord | undefined> {
  return (await loadMembers(db, [name]))[0];
}
