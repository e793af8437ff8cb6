/**
 * The rows a checked claim writes. Nothing here checks anything: the
 * engine's claim rules (`checkClaim`) did, against the rows claim-reads.ts
 * read in the same transaction.
 */
import type { CheckedClaim } from "@berth/engine";
import {
  claimEntries,
  claimRows,
  INSTANCE_COLUMNS,
  insertConsumers,
  instanceRowValues,
  listParam,
  type SqlParam,
  sqliteRunner,
  valuesOf,
} from "@berth/sql-core";
import type { InValue } from "@libsql/client";
import type { RawSql } from "../connection/open-connection.js";
import { rowsPerStatement } from "./bound-rows.js";
import { appendChanges } from "./feed-writes.js";
import { IN_JSON, selectJsonRows } from "./json-rows.js";

/** `project_usage`'s limit counters, in `projectTotalsValues`' order; a claim adds to each. */
const COUNTER_COLUMNS = ["instances", "containers", "virtual_machines", "cpu", "memory_bytes", "disk_bytes"];
export const COUNTERS = COUNTER_COLUMNS.join(", ");
const ADD_COUNTERS = ` ON CONFLICT (project) DO UPDATE SET ${COUNTER_COLUMNS.map(
  (c) => `${c} = ${c} + excluded.${c}`,
).join(", ")}`;

/** SQLite binds JSON columns as their text. */
const jsonText = (value: object): string => JSON.stringify(value);

/** Inserts narrow rows (arrays of `columns` values) with one statement, bound as one JSON text. */
async function insertRows(
  raw: RawSql,
  head: string,
  columns: number,
  rows: SqlParam[][],
  tail = "",
): Promise<void> {
  if (rows.length === 0) return;
  await raw.run(`${head} ${selectJsonRows(columns)}${tail}`, [listParam(rows)]);
}

/** Inserts instance rows with one bound parameter per value (see bound-rows.ts for why). */
async function insertInstances(raw: RawSql, rows: InValue[][]): Promise<void> {
  const columns = INSTANCE_COLUMNS.length;
  let start = 0;
  for (const count of rowsPerStatement(rows.length, columns)) {
    const chunk = rows.slice(start, (start += count));
    // One array filled in place: `flat()` costs more on a bulk create's thousands of rows.
    const args = new Array<InValue>(count * columns);
    for (let row = 0; row < count; row++)
      for (let c = 0; c < columns; c++) args[row * columns + c] = chunk[row]![c]!;
    await raw.run(`INSERT INTO instances (${INSTANCE_COLUMNS.join(", ")}) VALUES ${valuesOf(chunk)}`, args);
  }
}

/**
 * Writes a checked claim (or a group commit's combined one): deletes the
 * removed versions, inserts the stored ones with their allocations and
 * profile links, and adds the usage and project-counter changes the claim
 * rules computed. `memberIds` maps every provider the claim names to its row.
 */
export async function writeClaim(
  raw: RawSql,
  claim: CheckedClaim,
  memberIds: ReadonlyMap<string, number>,
): Promise<void> {
  const { removed, stored } = claim;
  for (const { member, evacuated } of claim.memberStates) {
    await raw.run("UPDATE members SET evacuated = ? WHERE id = ?", [
      evacuated ? 1 : 0,
      memberIds.get(member)!,
    ]);
  }
  // Old versions go first (replacements are rewritten whole); the cascade
  // takes their allocations and profile links with them.
  if (removed.length > 0) {
    await raw.run(`DELETE FROM instances WHERE id IN ${IN_JSON}`, [listParam(removed.map((r) => r.id))]);
  }
  // Instances' rows on child providers are their consumers (engine instance-consumers.ts).
  const { instanceConsumers } = claim;
  if (instanceConsumers.deleted.length > 0)
    await raw.run(`DELETE FROM consumers WHERE uuid IN ${IN_JSON}`, [listParam(instanceConsumers.deleted)]);
  await insertConsumers(sqliteRunner(raw), instanceConsumers.stored);
  if (instanceConsumers.providersChanged.length > 0)
    await raw.run(`UPDATE providers SET generation = generation + 1 WHERE uuid IN ${IN_JSON}`, [
      listParam(instanceConsumers.providersChanged),
    ]);

  await insertInstances(
    raw,
    stored.map((record) => instanceRowValues(record, memberIds, jsonText) as InValue[]),
  );
  const rows = claimRows(claim, memberIds);
  await insertRows(
    raw,
    "INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount, position)",
    6,
    rows.allocations,
  );
  await insertRows(raw, "INSERT INTO instance_profiles (instance_id, project, profile)", 3, rows.links);
  await insertRows(
    raw,
    "INSERT INTO usage (member_id, resource_class, ledger, amount)",
    4,
    rows.usage,
    " ON CONFLICT (member_id, resource_class, ledger) DO UPDATE SET amount = amount + excluded.amount",
  );
  await insertRows(raw, `INSERT INTO project_usage (project, ${COUNTERS})`, 7, rows.projects, ADD_COUNTERS);
  await appendChanges(raw, claimEntries(claim, memberIds));
}
