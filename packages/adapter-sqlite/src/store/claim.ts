import {
  type AllocationRow,
  type Claim,
  type ClaimResult,
  capacityFailure,
  capacityOf,
  claimFailure,
  constraintsFailure,
  type InstanceRecord,
  type InventoryRecord,
  type Ledger,
  type MemberUsage,
  meetsUnitConstraints,
  type NewInstance,
  noInventoryFailure,
  notFound,
  type ProjectLimits,
  storedInstance,
} from "@berth/engine";
import type { InValue } from "@libsql/client";
import type { Database, RawSql } from "../connection/open-connection.js";
import { rowsPerStatement } from "./bound-rows.js";
import { chunks } from "./chunks.js";
import { loadInstancesByIds } from "./instance-rows.js";
import { IN_JSON, jsonParameter, selectJsonRows } from "./json-rows.js";
import { valuesList } from "./sql-lists.js";

export type Dimension = keyof ProjectLimits;
export const DIMENSIONS: Dimension[] = [
  "instances",
  "containers",
  "virtualMachines",
  "cpu",
  "memoryBytes",
  "diskBytes",
];
export type ProjectTotals = Record<Dimension, number>;

export const zeroTotals = (): ProjectTotals => ({
  instances: 0,
  containers: 0,
  virtualMachines: 0,
  cpu: 0,
  memoryBytes: 0,
  diskBytes: 0,
});

export function contributionOf(instance: NewInstance): ProjectTotals {
  return {
    instances: 1,
    containers: instance.type === "container" ? 1 : 0,
    virtualMachines: instance.type === "virtual-machine" ? 1 : 0,
    cpu: instance.limitsUsage.cpu,
    memoryBytes: instance.limitsUsage.memoryBytes,
    diskBytes: instance.limitsUsage.diskBytes,
  };
}

export const pairKey = (member: string, resourceClass: string) => `${member}\u0000${resourceClass}`;

/**
 * Applies one claim inside the caller's write transaction (BEGIN IMMEDIATE,
 * so nothing read here can change before commit, in this process or any
 * other). Everything is validated first against the store's own rows —
 * revisions, ids, names, members, inventory constraints, capacity over both
 * ledgers, project limits — then written: instances, allocations, and the
 * usage rows that sum them, together. Any failure throws and the
 * transaction rolls back, so a claim lands entirely or not at all.
 */
export async function applyClaim(db: Database, raw: RawSql, claim: Claim): Promise<ClaimResult> {
  const validated = await validateClaim(db, raw, claim);
  await writeClaim(raw, validated);
  return {
    instances: validated.stored,
    usage: usageAfter(validated),
  };
}

export interface ValidatedClaim {
  removed: InstanceRecord[];
  stored: InstanceRecord[];
  memberIds: Map<string, number>;
  touched: Set<string>;
  usageBefore: Map<string, MemberUsage>;
}

async function validateClaim(db: Database, raw: RawSql, claim: Claim): Promise<ValidatedClaim> {
  const removeIds = (claim.remove ?? []).map((r) => r.id);
  const replaceIds = (claim.replace ?? []).map((r) => r.record.id);
  const current = new Map<string, InstanceRecord>();
  for (const part of chunks([...removeIds, ...replaceIds], 900)) {
    for (const instance of await loadInstancesByIds(db, part)) current.set(instance.id, instance);
  }

  const removed: InstanceRecord[] = [];
  const added: NewInstance[] = [];
  const oldById = new Map<string, InstanceRecord>();
  const requireCurrent = (id: string, expectedRevision: number | undefined): InstanceRecord => {
    const instance = current.get(id);
    if (instance === undefined) {
      throw claimFailure("conflict", `Instance "${id}" no longer exists`, { reason: "instance_missing", id });
    }
    if (expectedRevision !== undefined && expectedRevision !== instance.revision) {
      throw claimFailure(
        "conflict",
        `Instance "${instance.name}" was changed concurrently (revision ${instance.revision}, expected ${expectedRevision})`,
        { reason: "revision", id, expected: expectedRevision, actual: instance.revision },
      );
    }
    return instance;
  };
  for (const { id, expectedRevision } of claim.remove ?? [])
    removed.push(requireCurrent(id, expectedRevision));
  for (const { record, expectedRevision } of claim.replace ?? []) {
    const old = requireCurrent(record.id, expectedRevision);
    removed.push(old);
    oldById.set(old.id, old);
    added.push(record);
  }
  const creates = claim.create ?? [];
  const existing = await lookUpExisting(raw, creates, [...added, ...creates]);
  checkNewIds(existing.ids, creates, added);
  for (const record of creates) added.push(record);
  checkNames(existing.nameHolders, added, new Set(removed.map((r) => r.id)));
  requireProjects(existing.projects, added);

  const memberState = await loadMemberState(raw, removed, added);
  const touched = checkCapacity(removed, added, oldById, memberState);
  await checkProjectLimits(
    (project) => readProjectTotals(raw, project),
    removed,
    added,
    claim.projectLimits ?? {},
  );

  const stored = added.map((record) => storedInstance(record, (oldById.get(record.id)?.revision ?? 0) + 1));
  return { removed, stored, memberIds: memberState.ids, touched, usageBefore: memberState.usage };
}

/** What already exists among the ids, names and projects a claim's new records use. */
export interface Existing {
  ids: Set<string>;
  /** Id of the instance holding each "project/name". */
  nameHolders: Map<string, string>;
  projects: Set<string>;
}

/**
 * Which of the new ids are taken, which (project, name) pairs have a holder
 * and which projects exist: one statement for all three, since on a single
 * placement each statement's fixed cost outweighs its work.
 */
export async function lookUpExisting(
  raw: RawSql,
  creates: NewInstance[],
  added: NewInstance[],
): Promise<Existing> {
  const existing: Existing = { ids: new Set(), nameHolders: new Map(), projects: new Set() };
  if (added.length === 0) return existing;
  const pairs = new Map<string, [string, string]>();
  for (const record of added) {
    // Unnamed reservations (name "") are addressed by id and never clash.
    if (record.name !== "") pairs.set(`${record.project}/${record.name}`, [record.project, record.name]);
  }
  const rows = await raw.rows(
    `SELECT 'id' AS kind, id, NULL AS project, NULL AS name FROM instances WHERE id IN ${IN_JSON}
     UNION ALL
     SELECT 'name', i.id, i.project, i.name FROM json_each(?) AS wanted
       JOIN instances AS i ON i.project = wanted.value ->> 0 AND i.name = wanted.value ->> 1 AND i.name <> ''
     UNION ALL
     SELECT 'project', NULL, name, NULL FROM projects WHERE name IN ${IN_JSON}`,
    [
      jsonParameter(creates.map((r) => r.id)),
      jsonParameter([...pairs.values()]),
      jsonParameter([...new Set(added.map((r) => r.project))]),
    ],
  );
  for (const row of rows) {
    if (row.kind === "id") existing.ids.add(String(row.id));
    else if (row.kind === "name")
      existing.nameHolders.set(`${String(row.project)}/${String(row.name)}`, String(row.id));
    else existing.projects.add(String(row.project));
  }
  return existing;
}

export function checkNewIds(
  existing: Set<string>,
  creates: NewInstance[],
  alreadyAdded: NewInstance[],
): void {
  const seen = new Set(alreadyAdded.map((r) => r.id));
  for (const record of creates) {
    if (existing.has(record.id) || seen.has(record.id)) {
      throw claimFailure("conflict", `Instance id "${record.id}" already exists`, {
        reason: "id_taken",
        id: record.id,
      });
    }
    seen.add(record.id);
  }
}

export function checkNames(holders: Map<string, string>, added: NewInstance[], goneIds: Set<string>): void {
  const claimed = new Set<string>();
  for (const record of added) {
    // Unnamed reservations (name "") are addressed by id and never clash.
    if (record.name === "") continue;
    const key = `${record.project}/${record.name}`;
    const holder = holders.get(key);
    if ((holder !== undefined && !goneIds.has(holder)) || claimed.has(key)) {
      throw claimFailure(
        "conflict",
        `Instance "${record.name}" already exists in project "${record.project}"`,
        {
          reason: "name_taken",
          project: record.project,
          name: record.name,
        },
      );
    }
    claimed.add(key);
  }
}

/** Instances belong to a project that exists (a foreign key backs this up). */
export function requireProjects(found: Set<string>, added: NewInstance[]): void {
  const missing = added.find((record) => !found.has(record.project));
  if (missing !== undefined) throw notFound(`Project "${missing.project}" not found`);
}

/** What capacity checks need of the members a claim touches, read in one query. */
export interface MemberState {
  ids: Map<string, number>;
  /** By pairKey(member name, class). */
  inventories: Map<string, InventoryRecord>;
  /** used + forthcoming, by pairKey(member name, class). */
  consumed: Map<string, number>;
  /** Usage per ledger before the claim, by member name (non-zero amounts only). */
  usage: Map<string, MemberUsage>;
}

type InventoryTuple = [string, number, number, number, number, number, number, "explicit" | "derived"];
type UsageTuple = [string, Ledger, number];

export async function loadMemberState(
  raw: RawSql,
  removed: InstanceRecord[],
  added: NewInstance[],
): Promise<MemberState> {
  const names = new Set<string>();
  for (const instance of [...removed, ...added]) {
    names.add(instance.location);
    for (const row of instance.allocations) names.add(row.member);
  }
  const state: MemberState = {
    ids: new Map(),
    inventories: new Map(),
    consumed: new Map(),
    usage: new Map(),
  };
  // One JSON document: the client's per-row, per-column result
  // objects cost more than the lookups themselves on this hot path.
  const [row] = await raw.rows(
    `SELECT json_group_array(json_array(m.id, m.name,
       (SELECT json_group_array(json_array(resource_class, total, reserved, min_unit, max_unit, step_size,
                                           allocation_ratio, source))
        FROM inventories WHERE member_id = m.id),
       (SELECT json_group_array(json_array(resource_class, ledger, amount))
        FROM usage WHERE member_id = m.id AND amount != 0))) AS state
     FROM members AS m WHERE m.name IN ${IN_JSON}`,
    [jsonParameter([...names])],
  );
  const members = JSON.parse(String(row?.state ?? "[]")) as [
    number,
    string,
    InventoryTuple[],
    UsageTuple[],
  ][];
  for (const [id, name, inventoryRows, usageRows] of members) {
    state.ids.set(name, id);
    for (const [
      resourceClass,
      total,
      reserved,
      minUnit,
      maxUnit,
      stepSize,
      allocationRatio,
      source,
    ] of inventoryRows) {
      state.inventories.set(pairKey(name, resourceClass), {
        total,
        reserved,
        minUnit,
        maxUnit,
        stepSize,
        allocationRatio,
        source,
      });
    }
    const usage: MemberUsage = { member: name, used: {}, forthcoming: {} };
    for (const [resourceClass, ledger, amount] of usageRows) {
      usage[ledger][resourceClass] = amount;
      const key = pairKey(name, resourceClass);
      state.consumed.set(key, (state.consumed.get(key) ?? 0) + amount);
    }
    state.usage.set(name, usage);
  }
  return state;
}

/**
 * Usage of the touched members after the claim: what was read under the
 * write lock plus what the claim changed — exactly what a re-read would
 * return, without another statement.
 */
export function usageAfter(claim: ValidatedClaim): MemberUsage[] {
  const after = new Map<string, MemberUsage>();
  for (const name of [...claim.touched].sort()) {
    const before = claim.usageBefore.get(name) ?? { member: name, used: {}, forthcoming: {} };
    after.set(name, { member: name, used: { ...before.used }, forthcoming: { ...before.forthcoming } });
  }
  const apply = (row: AllocationRow, sign: number) => {
    const entry = after.get(row.member);
    if (entry === undefined || row.amount === 0) return;
    const ledger = entry[row.ledger];
    const amount = (ledger[row.resourceClass] ?? 0) + sign * row.amount;
    if (amount === 0) delete ledger[row.resourceClass];
    else ledger[row.resourceClass] = amount;
  };
  for (const old of claim.removed) for (const row of old.allocations) apply(row, -1);
  for (const record of claim.stored) for (const row of record.allocations) apply(row, 1);
  return [...after.values()];
}

/** Validates every grown allocation and returns the members the claim touches. */
export function checkCapacity(
  removed: InstanceRecord[],
  added: NewInstance[],
  oldById: Map<string, InstanceRecord>,
  state: MemberState,
): Set<string> {
  const memberIds = state.ids;
  const delta = new Map<string, { member: string; resourceClass: string; change: number }>();
  const touched = new Set<string>();
  /** Adds the row's amount to its (member, class) change and returns that pair's key. */
  const add = (row: AllocationRow, sign: number): string => {
    touched.add(row.member);
    const key = pairKey(row.member, row.resourceClass);
    const entry = delta.get(key);
    if (entry === undefined) {
      delta.set(key, { member: row.member, resourceClass: row.resourceClass, change: sign * row.amount });
    } else entry.change += sign * row.amount;
    return key;
  };
  const memberMissing = (member: string) =>
    claimFailure("conflict", `Cluster member "${member}" no longer exists`, {
      reason: "member_missing",
      member,
    });

  for (const old of removed) for (const row of old.allocations) add(row, -1);
  for (const record of added) {
    touched.add(record.location);
    if (!memberIds.has(record.location)) throw memberMissing(record.location);
    const old = oldById.get(record.id);
    for (const row of record.allocations) {
      if (row.amount === 0) continue;
      const key = add(row, 1);
      if (!memberIds.has(row.member)) throw memberMissing(row.member);
      // Only allocations that are new or grew must respect the inventory's
      // unit constraints; an unchanged one stays valid after an inventory edit.
      const before = old?.allocations
        .filter((o) => o.member === row.member && o.resourceClass === row.resourceClass)
        .reduce((sum, o) => sum + o.amount, 0);
      if (before !== undefined && row.amount <= before) continue;
      const inventory = state.inventories.get(key);
      if (inventory === undefined) throw noInventoryFailure(row.member, row.resourceClass);
      if (!meetsUnitConstraints(row.amount, inventory)) throw constraintsFailure(row, inventory);
    }
  }

  for (const { member, resourceClass, change } of delta.values()) {
    if (change <= 0 || !memberIds.has(member)) continue;
    const key = pairKey(member, resourceClass);
    const inventory = state.inventories.get(key);
    if (inventory === undefined) throw noInventoryFailure(member, resourceClass);
    // Both ledgers count: a reservation holds capacity exactly like an instance.
    const used = state.consumed.get(key) ?? 0;
    const capacity = capacityOf(inventory);
    if (used + change > capacity) throw capacityFailure(member, resourceClass, change, used, capacity);
  }
  return new Set([...touched].filter((name) => memberIds.has(name)));
}

/** A project's counters as stored (zero when it has none yet). */
export async function readProjectTotals(raw: RawSql, project: string): Promise<ProjectTotals> {
  const [row] = await raw.rows(
    `SELECT instances, containers, virtual_machines, cpu, memory_bytes, disk_bytes FROM project_usage WHERE project = ?`,
    [project],
  );
  return row === undefined
    ? zeroTotals()
    : {
        instances: Number(row.instances),
        containers: Number(row.containers),
        virtualMachines: Number(row.virtual_machines),
        cpu: Number(row.cpu),
        memoryBytes: Number(row.memory_bytes),
        diskBytes: Number(row.disk_bytes),
      };
}

/** Project limits on growth; `totalsOf` gives a project's counters before this claim (read only when a limit applies). */
export async function checkProjectLimits(
  totalsOf: (project: string) => Promise<ProjectTotals>,
  removed: InstanceRecord[],
  added: NewInstance[],
  limits: Record<string, ProjectLimits>,
): Promise<void> {
  for (const [project, projectLimits] of Object.entries(limits)) {
    const change = projectChange(removed, added, project);
    if (!DIMENSIONS.some((d) => projectLimits[d] !== undefined && change[d] > 0)) continue;
    const current = await totalsOf(project);
    for (const dimension of DIMENSIONS) {
      const max = projectLimits[dimension];
      if (max === undefined || change[dimension] <= 0) continue;
      const value = current[dimension] + change[dimension];
      if (value > max) {
        throw claimFailure(
          "insufficient_capacity",
          `Project "${project}" limit ${dimension} would be exceeded (${value} > ${max})`,
          { reason: "project_limit", project, limit: dimension, value, max },
        );
      }
    }
  }
}

function projectChange(removed: InstanceRecord[], added: NewInstance[], project: string): ProjectTotals {
  const change = zeroTotals();
  for (const [list, sign] of [
    [removed, -1],
    [added, 1],
  ] as const) {
    for (const record of list) {
      if (record.project !== project) continue;
      const contribution = contributionOf(record);
      for (const d of DIMENSIONS) change[d] += sign * contribution[d];
    }
  }
  return change;
}

const INSTANCE_COLUMNS = [
  "id",
  "project",
  "name",
  "type",
  "member_id",
  "forthcoming",
  "architecture",
  "description",
  "ephemeral",
  "profiles",
  "config",
  "devices",
  "instance_type",
  "flavor",
  "source",
  "placement_group",
  "origin",
  "created_at",
  "limits_cpu",
  "limits_memory_bytes",
  "limits_disk_bytes",
  "revision",
];

function instanceValues(record: InstanceRecord, memberId: number): InValue[] {
  return [
    record.id,
    record.project,
    record.name,
    record.type,
    memberId,
    record.forthcoming ? 1 : 0,
    record.architecture,
    record.description,
    record.ephemeral ? 1 : 0,
    JSON.stringify(record.profiles),
    JSON.stringify(record.config),
    JSON.stringify(record.devices),
    record.instanceType,
    record.flavor,
    record.source === null ? null : JSON.stringify(record.source),
    record.placementGroup,
    record.origin,
    record.createdAt,
    record.limitsUsage.cpu,
    record.limitsUsage.memoryBytes,
    record.limitsUsage.diskBytes,
    record.revision,
  ];
}

/** Inserts narrow rows (arrays of `columns` values) with one statement, bound as one JSON text. */
async function insertRows(
  raw: RawSql,
  head: string,
  columns: number,
  rows: InValue[][],
  tail = "",
): Promise<void> {
  if (rows.length === 0) return;
  await raw.run(`${head} ${selectJsonRows(columns)}${tail}`, [jsonParameter(rows)]);
}

/** Inserts wide rows with one bound parameter per value (see bound-rows.ts for why). */
async function insertBoundRows(raw: RawSql, head: string, columns: number, rows: InValue[][]): Promise<void> {
  let start = 0;
  for (const count of rowsPerStatement(rows.length, columns)) {
    const args = new Array<InValue>(count * columns);
    for (let row = 0; row < count; row++) {
      const values = rows[start + row]!;
      for (let column = 0; column < columns; column++) args[row * columns + column] = values[column]!;
    }
    await raw.run(`${head} VALUES ${valuesList(count, columns)}`, args);
    start += count;
  }
}

export async function writeClaim(raw: RawSql, claim: ValidatedClaim): Promise<void> {
  const { removed, stored, memberIds } = claim;
  // Old versions go first (replacements are rewritten whole); the cascade
  // takes their allocations and profile links with them.
  if (removed.length > 0) {
    await raw.run(`DELETE FROM instances WHERE id IN ${IN_JSON}`, [jsonParameter(removed.map((r) => r.id))]);
  }

  const usageDelta = new Map<
    string,
    { memberId: number; resourceClass: string; ledger: Ledger; amount: number }
  >();
  const addUsage = (row: AllocationRow, sign: number) => {
    const memberId = memberIds.get(row.member);
    if (memberId === undefined || row.amount === 0) return;
    const key = `${memberId}\u0000${row.resourceClass}\u0000${row.ledger}`;
    const entry = usageDelta.get(key) ?? {
      memberId,
      resourceClass: row.resourceClass,
      ledger: row.ledger,
      amount: 0,
    };
    entry.amount += sign * row.amount;
    usageDelta.set(key, entry);
  };
  const projectDelta = new Map<string, ProjectTotals>();
  const addProject = (record: NewInstance, sign: number) => {
    const totals = projectDelta.get(record.project) ?? zeroTotals();
    const contribution = contributionOf(record);
    for (const d of DIMENSIONS) totals[d] += sign * contribution[d];
    projectDelta.set(record.project, totals);
  };
  for (const old of removed) {
    for (const row of old.allocations) addUsage(row, -1);
    addProject(old, -1);
  }
  for (const record of stored) {
    for (const row of record.allocations) addUsage(row, 1);
    addProject(record, 1);
  }

  await insertBoundRows(
    raw,
    `INSERT INTO instances (${INSTANCE_COLUMNS.join(", ")})`,
    INSTANCE_COLUMNS.length,
    stored.map((record) => instanceValues(record, memberIds.get(record.location)!)),
  );
  await insertRows(
    raw,
    "INSERT INTO allocations (instance_id, member_id, resource_class, ledger, amount, position)",
    6,
    stored.flatMap((record) => mergedAllocations(record, memberIds)),
  );
  await insertRows(
    raw,
    "INSERT INTO instance_profiles (instance_id, project, profile)",
    3,
    stored.flatMap((record) =>
      [...new Set(record.profiles)].map((profile) => [record.id, record.project, profile]),
    ),
  );
  await insertRows(
    raw,
    "INSERT INTO usage (member_id, resource_class, ledger, amount)",
    4,
    [...usageDelta.values()]
      .filter((row) => row.amount !== 0)
      .map((row) => [row.memberId, row.resourceClass, row.ledger, row.amount]),
    " ON CONFLICT (member_id, resource_class, ledger) DO UPDATE SET amount = amount + excluded.amount",
  );
  await insertRows(
    raw,
    "INSERT INTO project_usage (project, instances, containers, virtual_machines, cpu, memory_bytes, disk_bytes)",
    7,
    [...projectDelta]
      .filter(([, totals]) => DIMENSIONS.some((d) => totals[d] !== 0))
      .map(([project, t]) => [
        project,
        t.instances,
        t.containers,
        t.virtualMachines,
        t.cpu,
        t.memoryBytes,
        t.diskBytes,
      ]),
    ` ON CONFLICT (project) DO UPDATE SET instances = instances + excluded.instances,
       containers = containers + excluded.containers, virtual_machines = virtual_machines + excluded.virtual_machines,
       cpu = cpu + excluded.cpu, memory_bytes = memory_bytes + excluded.memory_bytes,
       disk_bytes = disk_bytes + excluded.disk_bytes`,
  );
}

/**
 * One row per (member, class, ledger): repeated rows in a record are summed.
 * Each row carries its place in the record's list (the table is WITHOUT
 * ROWID, so that is what keeps the order when the record is read back).
 */
function mergedAllocations(record: InstanceRecord, memberIds: Map<string, number>): InValue[][] {
  // A record holds a handful of rows: a linear search for the same
  // (member, class, ledger) costs less than a Map and its string keys.
  const merged: [string, number, string, string, number, number][] = [];
  for (const row of record.allocations) {
    const memberId = memberIds.get(row.member);
    // Only zero-amount rows can name a member that is gone (validation
    // rejected the rest); there is nothing to record for them.
    if (memberId === undefined) continue;
    const existing = merged.find(
      (m) => m[1] === memberId && m[2] === row.resourceClass && m[3] === row.ledger,
    );
    if (existing !== undefined) existing[4] += row.amount;
    else merged.push([record.id, memberId, row.resourceClass, row.ledger, row.amount, merged.length]);
  }
  return merged;
}
