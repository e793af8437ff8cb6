/**
 * The rows a claim touches, read for the engine's claim rules (`ClaimRows`)
 * inside the caller's write transaction: under BEGIN IMMEDIATE nothing read
 * here can change before commit, in this process or any other. Each read is
 * one statement, whatever the claim's size (lists are bound as one JSON text).
 */
import type { ClaimReads, ProjectTotals, ProviderRows } from "@berth/engine";
import {
  type ClaimSide,
  type Existing,
  instancesById,
  listParam,
  lookUpRowsOf,
  projectTotalsFrom,
  readMemberProviders,
  readPlacementProviders,
  sqliteRunner,
} from "@berth/sql-core";
import type { RawSql } from "../connection/open-connection.js";
import { COUNTERS, writeClaim } from "./claim-writes.js";
import { IN_JSON } from "./json-rows.js";

/** @berth/sql-core's claims (`applyClaim`, `applyCreateClaims`) in SQLite; writes: claim-writes.ts. */
export function claimSide(raw: RawSql): ClaimSide {
  return {
    instances: (ids) => instancesById(sqliteRunner(raw), ids),
    lookUp: async (_claim, reads, memberNames) => {
      const existing = await lookUpExisting(raw, reads);
      const { rows, ids } = await readClaimProviders(raw, memberNames);
      return { ...existing, providers: rows, memberIds: ids };
    },
    projectTotals: (projects) => readProjectTotals(raw, projects),
    write: (checked, memberIds) => writeClaim(raw, checked, memberIds),
  };
}

/**
 * Taken ids, name holders and existing projects in one statement, since on
 * a single placement each statement's fixed cost outweighs its work.
 */
async function lookUpExisting(
  raw: RawSql,
  reads: Pick<ClaimReads, "createIds" | "names" | "projects">,
): Promise<Existing> {
  if (reads.createIds.length === 0 && reads.names.length === 0 && reads.projects.length === 0)
    return { takenIds: new Set(), nameHolders: new Map(), projects: new Set() };
  // Instance ids and Placement consumer uuids share one namespace (engine instance-consumers.ts).
  const rows = await raw.rows(
    `SELECT 'id' AS kind, id, NULL AS project, NULL AS name FROM instances WHERE id IN ${IN_JSON}
     UNION ALL
     SELECT 'id', uuid, NULL, NULL FROM consumers WHERE uuid IN ${IN_JSON}
     UNION ALL
     SELECT 'name', i.id, i.project, i.name FROM json_each(?) AS wanted
       JOIN instances AS i ON i.project = wanted.value ->> 0 AND i.name = wanted.value ->> 1 AND i.name <> ''
     UNION ALL
     SELECT 'project', NULL, name, NULL FROM projects WHERE name IN ${IN_JSON}`,
    [
      listParam(reads.createIds),
      listParam(reads.createIds),
      listParam(reads.names),
      listParam(reads.projects),
    ],
  );
  return lookUpRowsOf(rows).existing;
}

/**
 * Every provider a claim names that exists: the members
 * (`readMemberProviders`) and, for names no member has, the Placement
 * providers of that uuid (the children of members' trees; instances' rows
 * on them are consumer rows).
 */
async function readClaimProviders(
  raw: RawSql,
  names: readonly string[],
): Promise<{ rows: Map<string, ProviderRows>; ids: Map<string, number> }> {
  const db = sqliteRunner(raw);
  const members = await readMemberProviders(db, names);
  await readPlacementProviders(
    db,
    names.filter((name) => !members.rows.has(name)),
    members.rows,
  );
  return members;
}

/** Limit counters of the named projects as stored (zero for a project with none yet). */
async function readProjectTotals(
  raw: RawSql,
  projects: readonly string[],
): Promise<Map<string, ProjectTotals>> {
  if (projects.length === 0) return new Map();
  const rows = await raw.rows(`SELECT project, ${COUNTERS} FROM project_usage WHERE project IN ${IN_JSON}`, [
    listParam(projects),
  ]);
  return projectTotalsFrom(projects, rows);
}
