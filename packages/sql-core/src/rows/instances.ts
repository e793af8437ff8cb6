import type { AllocationRow, InstanceFilter, InstanceRecord } from "@berth/engine";
import { jsonSql } from "../runner/json-sql.js";
import { inList, listParam } from "../runner/lists.js";
import type { SqlParam, SqlRunner } from "../runner/runner.js";
import { jsonValue } from "../runner/values.js";

/** An instance as the database builds it: its member rows and its consumer rows apart. */
type InstanceDocument = Omit<InstanceRecord, "allocations" | "secondary"> & {
  memberRows: AllocationRow[];
  /** Rows on child providers (engine instance-consumers.ts): member is the provider's uuid; no ledger. */
  childRows: Omit<AllocationRow, "ledger">[];
  secondary: string | null;
};

/** One instance record as one JSON value, built inside the database (see JsonSql). */
function instanceDocument(db: SqlRunner): string {
  const json = jsonSql(db);
  return json.object({
    id: "i.id",
    project: "i.project",
    name: "i.name",
    type: "i.type",
    location: "m.name",
    forthcoming: json.bool("i.forthcoming"),
    architecture: "i.architecture",
    description: "i.description",
    ephemeral: json.bool("i.ephemeral"),
    profiles: json.doc("i.profiles"),
    config: json.doc("i.config"),
    devices: json.doc("i.devices"),
    instanceType: "i.instance_type",
    flavor: "i.flavor",
    source: json.doc("i.source"),
    placementGroup: "i.placement_group",
    origin: "i.origin",
    createdAt: "i.created_at",
    memberRows: json.doc(
      `(SELECT ${json.agg(
        json.object({
          member: "am.name",
          resourceClass: "a.resource_class",
          ledger: "a.ledger",
          amount: "a.amount",
        }),
        "a.position",
      )} FROM allocations AS a JOIN members AS am ON am.id = a.member_id WHERE a.instance_id = i.id)`,
    ),
    childRows: json.doc(
      `(SELECT ${json.agg(
        json.object({ member: "c.provider_uuid", resourceClass: "c.resource_class", amount: "c.amount" }),
        "c.position",
      )} FROM consumer_allocations AS c WHERE c.consumer_uuid = i.id)`,
    ),
    limitsUsage: json.object({
      cpu: "i.limits_cpu",
      memoryBytes: "i.limits_memory_bytes",
      diskBytes: "i.limits_disk_bytes",
    }),
    decision: json.doc("i.decision"),
    revision: "i.revision",
    secondary: "(SELECT sm.name FROM members AS sm WHERE sm.id = i.secondary_id)",
  });
}

/**
 * The record of one instance document: its member rows, then its consumer
 * rows in the instance's own ledger; `secondary` only when it has one (as
 * in the other stores).
 */
export function instanceRecordOf(value: unknown): InstanceRecord {
  const { memberRows, childRows, secondary, ...rest } = jsonValue<InstanceDocument>(value);
  const ledger = rest.forthcoming ? "forthcoming" : "used";
  const record: InstanceRecord = {
    ...rest,
    allocations: [...memberRows, ...childRows.map((row) => ({ ...row, ledger }) as AllocationRow)],
  };
  if (secondary !== null) record.secondary = secondary;
  return record;
}

interface LoadOptions {
  /**
   * Lock the instance rows (FOR UPDATE, in id order) where the dialect has
   * row locks: PostgreSQL. SQLite's writers hold the whole file already.
   */
  lock?: boolean;
}

/** Instances matching `where`, in claim order (SQLite's rowid, PostgreSQL's `seq`). */
async function instancesWhere(
  db: SqlRunner,
  where: string,
  params: readonly SqlParam[],
  options: LoadOptions = {},
): Promise<InstanceRecord[]> {
  const lock = options.lock === true && db.dialect === "pg";
  const order = lock ? "i.id" : db.dialect === "pg" ? "i.seq" : "i.rowid";
  const rows = await db.all(
    `SELECT ${instanceDocument(db)} AS r FROM instances AS i JOIN members AS m ON m.id = i.member_id
     ${where} ORDER BY ${order}${lock ? " FOR UPDATE OF i" : ""}`,
    params,
  );
  return rows.map((row) => instanceRecordOf(row.r));
}

export function loadInstancesByIds(
  db: SqlRunner,
  ids: readonly string[],
  options: LoadOptions = {},
): Promise<InstanceRecord[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return instancesWhere(db, `WHERE i.id IN ${inList(db)}`, [listParam(ids)], options);
}

/** The instances of `ids` that exist, by id. */
export async function instancesById(
  db: SqlRunner,
  ids: readonly string[],
): Promise<Map<string, InstanceRecord>> {
  return new Map((await loadInstancesByIds(db, ids)).map((instance) => [instance.id, instance]));
}

export async function loadInstanceByName(
  db: SqlRunner,
  project: string,
  name: string,
): Promise<InstanceRecord | undefined> {
  // Unnamed reservations are addressed by id only; `name <> ''` repeats the
  // partial unique index's condition so SQLite uses that index.
  if (name === "") return undefined;
  const [found] = await instancesWhere(db, "WHERE i.project = ? AND i.name = ? AND i.name <> ''", [
    project,
    name,
  ]);
  return found;
}

export function listInstances(db: SqlRunner, filter: InstanceFilter = {}): Promise<InstanceRecord[]> {
  const terms: string[] = [];
  const params: SqlParam[] = [];
  const add = (term: string, value: SqlParam) => {
    terms.push(term);
    params.push(value);
  };
  if (filter.project !== undefined) add("i.project = ?", filter.project);
  // By member id, so both dialects find the rows through instances_by_member / instances_by_secondary.
  if (filter.location !== undefined)
    add("i.member_id = (SELECT id FROM members WHERE name = ?)", filter.location);
  if (filter.secondary !== undefined)
    add("i.secondary_id = (SELECT id FROM members WHERE name = ?)", filter.secondary);
  if (filter.forthcoming !== undefined) add("i.forthcoming = ?", filter.forthcoming);
  if (filter.placementGroup !== undefined) add("i.placement_group = ?", filter.placementGroup);
  return instancesWhere(db, terms.length === 0 ? "" : `WHERE ${terms.join(" AND ")}`, params);
}
