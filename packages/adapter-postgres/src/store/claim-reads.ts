/**
 * The rows a claim touches, read for the engine's claim rules (`ClaimRows`)
 * inside the claim's write transaction (READ COMMITTED). Rows are locked in
 * one fixed order by every claim — instances by id, then members by name,
 * then project counters by (project, shard) — so two claims never wait for
 * each other in a cycle, and each read that decides comes from a statement
 * that starts after its locks were granted: in READ COMMITTED a statement
 * sees what committed before it began, so a lock statement and the read
 * after it are always two statements (a read in the same statement as the
 * lock could use a snapshot from before the previous holder committed).
 * The two are sent together, though (the connection is pipelined): the
 * server runs the read only once the lock statement finished, so it still
 * starts after the locks were granted, and the claim waits one round trip
 * for both.
 */
import { type Claim, type ClaimReads, newRecordsOf, type ProjectTotals } from "@berth/engine";
import {
  type ClaimProviders,
  type ClaimSide,
  type Existing,
  instancesById,
  lookUpRowsOf,
  pgRunner,
  projectTotalsFrom,
  readMemberProviders,
  readPlacementProviders,
} from "@berth/sql-core";
import type { Tx } from "../connection/pools.js";
import { writeClaim } from "./claim-writes.js";
import { PROJECT_SHARDS } from "./project-shards.js";

/**
 * @berth/sql-core's claims (`applyClaim`, `applyCreateClaims`) in
 * PostgreSQL (writes: claim-writes.ts), each read taking its locks in the fixed order: 1. the instances
 * removed or replaced (locked, then their current versions read); 2 and 3.
 * what the new records name looked up and the members locked (one
 * statement), then the members read; 4. limit counters, only for projects
 * whose limits the claim could pass: every shard locked, then summed.
 */
export function claimSide(tx: Tx): ClaimSide {
  return {
    instances: async (ids) => {
      if (ids.length > 0)
        await tx.run("SELECT 1 FROM instances WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE", [ids]);
      return instancesById(pgRunner(tx), ids);
    },
    lookUp: async (claim, reads, memberNames) => {
      const { existing, providers, memberIds } = await lockAndReadMembers(tx, claim, reads, memberNames);
      return { ...existing, providers, memberIds };
    },
    projectTotals: (projects) => readProjectTotals(tx, projects),
    write: (checked, memberIds) => writeClaim(tx, checked, memberIds),
  };
}

/**
 * `lookUpAndLockMembers` and `readMemberProviders` sent together (one round
 * trip; the read runs after the lock statement, see the top of this file).
 * Only members the lock statement locked are kept: a member created by
 * another writer between the two statements was not locked, and the
 * claim's rules then find it missing, as they would have a moment before.
 */
async function lockAndReadMembers(
  tx: Tx,
  claim: Claim,
  reads: ClaimReads,
  memberNames: readonly string[],
): Promise<{ existing: Existing } & ClaimProviders> {
  const names = [...new Set(memberNames)].sort();
  const [{ existing, lockedMembers, lockedProviders }, read] = await Promise.all([
    lookUpAndLockMembers(tx, claim, reads, names),
    readMemberProviders(pgRunner(tx), names),
  ]);
  if (lockedMembers.length < read.rows.size) {
    const lockedNames = new Set(lockedMembers.map((member) => member.name));
    for (const name of [...read.rows.keys()]) {
      if (lockedNames.has(name)) continue;
      read.rows.delete(name);
      read.ids.delete(name);
    }
  }
  // Placement providers the claim touches (locked by the same statement): read after it.
  await readPlacementProviders(pgRunner(tx), lockedProviders, read.rows);
  return { existing, providers: read.rows, memberIds: read.ids };
}

/**
 * Locks member rows by name (`$1`, sorted by the caller with the default
 * `sort()`, so every claim takes them in one order), one name at a time
 * through the unique index: written as `name = ANY($1)`, the planner prices
 * a scan of every member row below a few index probes (1,000 members fit
 * in 18 cached pages), and its cached plan then compares every member's
 * name with every wanted one on every claim. The rows are locked in the
 * order of `$1`: the subquery runs once per name, in array order.
 */
export const LOCK_MEMBERS_IN_ORDER = `SELECT m.id, m.name FROM unnest($1::text[]) AS w(name)
         CROSS JOIN LATERAL (SELECT id, name FROM members WHERE name = w.name FOR NO KEY UPDATE) AS m`;

/** `lookUpAndLockMembers`' statement (see there; exported for the plan test). */
export const LOOK_UP_AND_LOCK = `WITH wanted_projects AS (
       SELECT name FROM projects WHERE name = ANY($3::text[]) ORDER BY name FOR KEY SHARE
     ), wanted_profiles AS (
       SELECT 1 FROM profiles AS p JOIN jsonb_array_elements($4::jsonb) AS w
         ON p.project = w->>0 AND p.name = w->>1 ORDER BY p.project, p.name FOR KEY SHARE OF p
     ), wanted_groups AS (
       SELECT 1 FROM placement_groups AS g JOIN jsonb_array_elements($5::jsonb) AS w
         ON g.project = w->>0 AND g.name = w->>1 ORDER BY g.project, g.name FOR KEY SHARE OF g
     ), locked_providers AS (
       SELECT p.uuid FROM unnest($6::text[]) AS w(uuid)
         CROSS JOIN LATERAL (SELECT uuid FROM providers WHERE uuid = w.uuid FOR UPDATE) AS p
     ), locked_members AS (
       ${LOCK_MEMBERS_IN_ORDER.replace("$1", "$6")}
     )
     SELECT 'id' AS kind, i.id, NULL AS project, NULL AS name FROM unnest($1::text[]) AS w(id)
       CROSS JOIN LATERAL (SELECT id FROM instances WHERE id = w.id LIMIT 1) AS i
     UNION ALL
     SELECT 'id', c.uuid, NULL, NULL FROM unnest($1::text[]) AS w(uuid)
       CROSS JOIN LATERAL (SELECT uuid FROM consumers WHERE uuid = w.uuid LIMIT 1) AS c
     UNION ALL
     SELECT 'name', i.id, i.project, i.name FROM jsonb_array_elements($2::jsonb) AS w
       CROSS JOIN LATERAL (SELECT id, project, name FROM instances
                           WHERE project = w->>0 AND name = w->>1 AND name <> '' LIMIT 1) AS i
     UNION ALL
     SELECT 'project', NULL, name, NULL FROM wanted_projects
     UNION ALL
     SELECT 'lock', NULL, NULL, NULL FROM (SELECT count(*) FROM wanted_profiles) AS a, (SELECT count(*) FROM wanted_groups) AS b
     UNION ALL
     SELECT 'provider', uuid, NULL, NULL FROM locked_providers
     UNION ALL
     SELECT 'member', id::text, NULL, name FROM locked_members`;

/**
 * One statement, one round trip, taking its locks in the fixed order:
 *  - taken ids, name holders and existing projects of the new records; the
 *    projects, profiles and placement groups they name are share-locked
 *    (`FOR KEY SHARE`), so none of them can be deleted before the claim
 *    commits;
 *  - then the member rows the claim touches, in name order (`names`, unique
 *    and sorted by the caller; `FOR NO KEY UPDATE`). Their inventories and usage are read by the next statement
 *    (`readMemberProviders`), which starts after these locks were granted.
 * The UNION ALL's branches run in the order written (that is the lock
 * order). Taken ids, name holders, providers and members are each found
 * through their unique index one wanted key at a time (a LATERAL subquery
 * with LIMIT 1 or a lock, which the planner keeps as a loop of index
 * probes), never by scanning a whole table: with `= ANY(...)` or a join, a
 * plan made while a table was small (and cached with the prepared
 * statement) keeps scanning it as it grows.
 */
async function lookUpAndLockMembers(
  tx: Tx,
  claim: Claim,
  reads: ClaimReads,
  names: readonly string[],
): Promise<ReturnType<typeof lookUpRowsOf>> {
  const records = newRecordsOf(claim);
  if (records.length === 0 && names.length === 0) return lookUpRowsOf([]);
  const profiles = new Set<string>();
  const groups = new Set<string>();
  for (const record of records) {
    for (const profile of record.profiles) profiles.add(JSON.stringify([record.project, profile]));
    if (record.placementGroup !== null) groups.add(JSON.stringify([record.project, record.placementGroup]));
  }
  return lookUpRowsOf(
    await tx.rows(LOOK_UP_AND_LOCK, [
      reads.createIds,
      JSON.stringify(reads.names),
      reads.projects,
      `[${[...profiles].join(",")}]`,
      `[${[...groups].join(",")}]`,
      names,
    ]),
  );
}

async function readProjectTotals(tx: Tx, projects: readonly string[]): Promise<Map<string, ProjectTotals>> {
  if (projects.length === 0) return new Map();
  // Every shard must exist to be locked: a missing one would let two limit checks pass at once.
  await tx.run(
    `INSERT INTO project_usage (project, shard)
     SELECT p, s FROM unnest($1::text[]) AS p, generate_series(0, ${PROJECT_SHARDS - 1}) AS s
     ON CONFLICT DO NOTHING`,
    [projects],
  );
  await tx.run(
    "SELECT 1 FROM project_usage WHERE project = ANY($1::text[]) ORDER BY project, shard FOR UPDATE",
    [projects],
  );
  const rows = await tx.rows(
    `SELECT project, sum(instances)::bigint AS instances, sum(containers)::bigint AS containers,
            sum(virtual_machines)::bigint AS virtual_machines, sum(cpu)::bigint AS cpu,
            sum(memory_bytes)::bigint AS memory_bytes, sum(disk_bytes)::bigint AS disk_bytes
     FROM project_usage WHERE project = ANY($1::text[]) GROUP BY project`,
    [projects],
  );
  return projectTotalsFrom(projects, rows);
}

/**
 * Locks the named members' rows, in name order (`FOR NO KEY UPDATE`, as a
 * claim's lookup does), for a Placement consumer claim on their root
 * providers: the two kinds of claim on one member then take turns.
 */
export async function lockMembers(tx: Tx, names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const locked = await tx.rows<{ name: string }>(LOCK_MEMBERS_IN_ORDER, [[...new Set(names)].sort()]);
  return locked.map((member) => member.name);
}
