/**
 * The rows a checked claim writes. Nothing here checks anything: the
 * engine's claim rules did, against the rows claim-reads.ts read and locked
 * in the same transaction. A replaced instance is updated in place (its row
 * keeps its identity, so the lock a concurrent claim waits on stays
 * meaningful) and moves to the end of the listing order, as a new version
 * does in the other stores.
 */
import type { ChangeEntry, CheckedClaim } from "@berth/engine";
import {
  claimEntries,
  claimRows,
  INSTANCE_COLUMNS,
  insertConsumers,
  instanceRowValues,
  pgRunner,
} from "@berth/sql-core";
import type { Tx } from "../connection/pools.js";
import { appendChangesSql, feedEntriesParameter } from "./feed-writes.js";
import { randomShard } from "./project-shards.js";

/** The JSON array of a row, typed column by column (one bound parameter for the whole list). */
const INSTANCE_SELECT = `SELECT r->>0, r->>1, r->>2, r->>3, (r->>4)::bigint, (r->>5)::boolean, r->>6, r->>7,
  (r->>8)::boolean, r->9, r->10, r->11, r->>12, r->>13, CASE WHEN jsonb_typeof(r->14) = 'null' THEN NULL ELSE r->14 END,
  r->>15, r->>16, r->>17, (r->>18)::bigint, (r->>19)::bigint, (r->>20)::bigint,
  CASE WHEN jsonb_typeof(r->21) = 'null' THEN NULL ELSE r->21 END, (r->>22)::int, (r->>23)::bigint
  FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(r, n) ORDER BY n`;

const COLUMNS = INSTANCE_COLUMNS.join(", ");

/** PostgreSQL reads JSON columns from the row's own JSON. */
const jsonValue = (value: object): object => value;

/**
 * A claim's inserts and counter updates as one statement: each part reads
 * its rows from one JSON parameter (an empty list writes nothing), and the
 * change-feed insert runs last — its WHERE counts what every other part
 * returned, so PostgreSQL finishes them (and takes their row locks) before
 * it draws the entries' ids (see feed-writes.ts). Foreign keys are checked
 * at the end of the statement, when the instances the allocations and
 * profile links name exist.
 */
const CLAIM_WRITE = `WITH new_instances AS (
    INSERT INTO instances (${COLUMNS}) ${INSTANCE_SELECT} RETURNING 1
  ), new_allocations AS (
    INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount, position)
    SELECT r->>0, (r->>1)::bigint, r->>2, r->>3, (r->>4)::bigint, (r->>5)::int FROM jsonb_array_elements($2::jsonb) AS r
    RETURNING 1
  ), new_links AS (
    INSERT INTO instance_profiles (instance_id, project, profile)
    SELECT r->>0, r->>1, r->>2 FROM jsonb_array_elements($3::jsonb) AS r
    RETURNING 1
  ), usage_changes AS (
    INSERT INTO usage (member_id, resource_class, ledger, amount)
    SELECT (r->>0)::bigint, r->>1, r->>2, (r->>3)::bigint FROM jsonb_array_elements($4::jsonb) AS r
    ORDER BY 1, 2, 3
    ON CONFLICT (member_id, resource_class, ledger) DO UPDATE SET amount = usage.amount + excluded.amount
    RETURNING 1
  ), project_changes AS (
    INSERT INTO project_usage (project, shard, instances, containers, virtual_machines, cpu, memory_bytes, disk_bytes)
    SELECT r->>0, (r->>1)::int, (r->>2)::bigint, (r->>3)::bigint, (r->>4)::bigint, (r->>5)::bigint, (r->>6)::bigint,
           (r->>7)::bigint
    FROM jsonb_array_elements($5::jsonb) AS r ORDER BY 1
    ON CONFLICT (project, shard) DO UPDATE SET instances = project_usage.instances + excluded.instances,
      containers = project_usage.containers + excluded.containers,
      virtual_machines = project_usage.virtual_machines + excluded.virtual_machines,
      cpu = project_usage.cpu + excluded.cpu, memory_bytes = project_usage.memory_bytes + excluded.memory_bytes,
      disk_bytes = project_usage.disk_bytes + excluded.disk_bytes
    RETURNING 1
  )
  ${appendChangesSql(6)}
  WHERE (SELECT count(*) FROM new_instances) + (SELECT count(*) FROM new_allocations) + (SELECT count(*) FROM new_links)
        + (SELECT count(*) FROM usage_changes) + (SELECT count(*) FROM project_changes) >= 0
  ORDER BY n`;

export async function writeClaim(
  tx: Tx,
  claim: CheckedClaim,
  memberIds: ReadonlyMap<string, number>,
  extraEntries: readonly ChangeEntry[] = [],
): Promise<void> {
  // Evacuation and restore: the member rows were locked by the claim's reads (lookUpAndLockMembers).
  if (claim.memberStates.length > 0) {
    await tx.run(
      `UPDATE members AS m SET evacuated = (s->>1)::boolean
       FROM jsonb_array_elements($1::jsonb) AS s WHERE m.id = (s->>0)::bigint`,
      [
        JSON.stringify(
          claim.memberStates.map(({ member, evacuated }) => [memberIds.get(member)!, evacuated]),
        ),
      ],
    );
  }
  const storedIds = new Set(claim.stored.map((record) => record.id));
  const removedIds = new Set(claim.removed.map((record) => record.id));
  const deleted = claim.removed.filter((record) => !storedIds.has(record.id)).map((record) => record.id);
  const replaced = claim.stored.filter((record) => removedIds.has(record.id));
  const created = claim.stored.filter((record) => !removedIds.has(record.id));
  if (deleted.length > 0) await tx.run("DELETE FROM instances WHERE id = ANY($1::text[])", [deleted]);
  // Instances' rows on child providers are their consumers (engine instance-consumers.ts).
  const { instanceConsumers } = claim;
  if (instanceConsumers.deleted.length > 0)
    await tx.run("DELETE FROM consumers WHERE uuid = ANY($1::text[])", [instanceConsumers.deleted]);
  await insertConsumers(pgRunner(tx), instanceConsumers.stored);
  if (instanceConsumers.providersChanged.length > 0)
    await tx.run("UPDATE providers SET generation = generation + 1 WHERE uuid = ANY($1::text[])", [
      instanceConsumers.providersChanged,
    ]);
  if (replaced.length > 0) {
    const ids = replaced.map((record) => record.id);
    await tx.run("DELETE FROM allocations WHERE instance_id = ANY($1::text[])", [ids]);
    await tx.run("DELETE FROM instance_profiles WHERE instance_id = ANY($1::text[])", [ids]);
    await tx.run(
      `UPDATE instances AS i SET (${COLUMNS}, seq) = (SELECT v.*, nextval('instances_seq')
         FROM (${INSTANCE_SELECT.replace("ORDER BY n", "")}) AS v (${COLUMNS})
         WHERE v.id = i.id)
       WHERE i.id = ANY($2::text[])`,
      [JSON.stringify(replaced.map((record) => instanceRowValues(record, memberIds, jsonValue))), ids],
    );
  }
  // Everything else in one statement (one round trip): the new instances, allocations, profile links,
  // usage and project counters, and last the change-feed entries (see CLAIM_WRITE).
  const rows = claimRows(claim, memberIds);
  await tx.finalRun(CLAIM_WRITE, [
    JSON.stringify(created.map((record) => instanceRowValues(record, memberIds, jsonValue))),
    JSON.stringify(rows.allocations),
    JSON.stringify(rows.links),
    JSON.stringify(rows.usage),
    // One shard per claim (see project-shards.ts); a limit check sums them all.
    JSON.stringify(rows.projects.map(([project, ...totals]) => [project, randomShard(), ...totals])),
    feedEntriesParameter(tx, [...claimEntries(claim, memberIds), ...extraEntries]),
  ]);
}
