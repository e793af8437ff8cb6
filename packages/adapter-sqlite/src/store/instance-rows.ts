import type { AllocationRow, InstanceFilter, InstanceRecord, Ledger } from "@berth/engine";
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Database } from "../connection/open-connection.js";
import { allocations, consumerAllocations, instances, members } from "../schema/index.js";
import { chunks } from "./chunks.js";

type InstanceRow = typeof instances.$inferSelect;

/** The secondary's member row, joined beside the location's. */
const secondaries = alias(members, "secondaries");

/** Column list of an instance read, with the location's and the secondary's member names joined in. */
const instanceColumns = { row: instances, location: members.name, secondary: secondaries.name };

/** Reads instances matching `where` with their allocations, in creation order. */
export async function loadInstances(db: Database, where: SQL | undefined): Promise<InstanceRecord[]> {
  const rows = await db
    .select(instanceColumns)
    .from(instances)
    .innerJoin(members, eq(members.id, instances.memberId))
    .leftJoin(secondaries, eq(secondaries.id, instances.secondaryId))
    .where(where)
    .orderBy(asc(sql`${instances}.rowid`));
  if (rows.length === 0) return [];
  const allocationsById = new Map<string, AllocationRow[]>();
  const forthcomingIds = new Set(rows.filter((r) => r.row.forthcoming).map((r) => r.row.id));
  for (const part of chunks(
    rows.map((r) => r.row.id),
    900,
  )) {
    const allocationRows = await db
      .select({
        instanceId: allocations.instanceId,
        member: members.name,
        resourceClass: allocations.resourceClass,
        ledger: allocations.ledger,
        amount: allocations.amount,
      })
      .from(allocations)
      .innerJoin(members, eq(members.id, allocations.memberId))
      .where(inArray(allocations.instanceId, part))
      .orderBy(asc(allocations.position));
    for (const { instanceId, ...row } of allocationRows) {
      let list = allocationsById.get(instanceId);
      if (list === undefined) allocationsById.set(instanceId, (list = []));
      list.push(row);
    }
    // Rows on child providers are the instance's consumer rows (engine instance-consumers.ts),
    // in the instance's own ledger.
    const childRows = await db
      .select({
        instanceId: consumerAllocations.consumerUuid,
        member: consumerAllocations.providerUuid,
        resourceClass: consumerAllocations.resourceClass,
        amount: consumerAllocations.amount,
      })
      .from(consumerAllocations)
      .where(inArray(consumerAllocations.consumerUuid, part))
      .orderBy(asc(consumerAllocations.position));
    for (const { instanceId, ...row } of childRows) {
      const ledger: Ledger = forthcomingIds.has(instanceId) ? "forthcoming" : "used";
      let list = allocationsById.get(instanceId);
      if (list === undefined) allocationsById.set(instanceId, (list = []));
      list.push({ ...row, ledger });
    }
  }
  return rows.map(({ row, location, secondary }) =>
    instanceRecordOf(row, location, secondary, allocationsById.get(row.id) ?? []),
  );
}

export function loadInstancesByIds(db: Database, ids: string[]): Promise<InstanceRecord[]> {
  return ids.length === 0 ? Promise.resolve([]) : loadInstances(db, inArray(instances.id, ids));
}

export function instanceFilterWhere(filter: InstanceFilter): SQL | undefined {
  return and(
    filter.project === undefined ? undefined : eq(instances.project, filter.project),
    filter.location === undefined
      ? undefined
      : eq(
          instances.memberId,
          sql`(SELECT ${members.id} FROM ${members} WHERE ${members.name} = ${filter.location})`,
        ),
    filter.secondary === undefined
      ? undefined
      : eq(
          instances.secondaryId,
          sql`(SELECT ${members.id} FROM ${members} WHERE ${members.name} = ${filter.secondary})`,
        ),
    filter.forthcoming === undefined ? undefined : eq(instances.forthcoming, filter.forthcoming),
    filter.placementGroup === undefined ? undefined : eq(instances.placementGroup, filter.placementGroup),
  );
}

function instanceRecordOf(
  row: InstanceRow,
  location: string,
  secondary: string | null,
  rows: AllocationRow[],
): InstanceRecord {
  const record: InstanceRecord = {
    id: row.id,
    project: row.project,
    name: row.name,
    type: row.type,
    location,
    forthcoming: row.forthcoming,
    architecture: row.architecture,
    description: row.description,
    ephemeral: row.ephemeral,
    profiles: row.profiles,
    config: row.config,
    devices: row.devices,
    instanceType: row.instanceType,
    flavor: row.flavor,
    source: row.source,
    placementGroup: row.placementGroup,
    origin: row.origin,
    createdAt: row.createdAt,
    allocations: rows,
    limitsUsage: { cpu: row.limitsCpu, memoryBytes: row.limitsMemoryBytes, diskBytes: row.limitsDiskBytes },
    decision: row.decision ?? null,
    revision: row.revision,
  };
  if (secondary !== null) record.secondary = secondary;
  return record;
}
