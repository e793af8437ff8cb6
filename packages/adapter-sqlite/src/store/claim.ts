import {
  type AllocationRow,
  type Claim,
  type ClaimResult,
  capacityOf,
  type InstanceRecord,
  type InventoryRecord,
  type Ledger,
  type NewInstance,
  notFound,
  type ProjectLimits,
} from "@berth/engine";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../connection/open-connection.js";
import {
  allocations,
  instanceProfiles,
  instances,
  inventories,
  members,
  projects,
  projectUsage,
  usage,
} from "../schema/index.js";
import { chunks } from "./chunks.js";
import { claimFailure } from "./claim-failures.js";
import { instanceRowOf, loadInstancesByIds } from "./instance-rows.js";
import { readMemberUsage } from "./member-usage.js";

type Dimension = keyof ProjectLimits;
const DIMENSIONS: Dimension[] = [
  "instances",
  "containers",
  "virtualMachines",
  "cpu",
  "memoryBytes",
  "diskBytes",
];
type ProjectTotals = Record<Dimension, number>;

const zeroTotals = (): ProjectTotals => ({
  instances: 0,
  containers: 0,
  virtualMachines: 0,
  cpu: 0,
  memoryBytes: 0,
  diskBytes: 0,
});

function contributionOf(instance: NewInstance): ProjectTotals {
  return {
    instances: 1,
    containers: instance.type === "container" ? 1 : 0,
    virtualMachines: instance.type === "virtual-machine" ? 1 : 0,
    cpu: instance.limitsUsage.cpu,
    memoryBytes: instance.limitsUsage.memoryBytes,
    diskBytes: instance.limitsUsage.diskBytes,
  };
}

const pairKey = (member: string, resourceClass: string) => `${member}\u0000${resourceClass}`;

/**
 * Applies one claim inside the caller's write transaction (BEGIN IMMEDIATE,
 * so nothing read here can change before commit, in this process or any
 * other). Everything is validated first against the store's own rows —
 * revisions, ids, names, members, inventory constraints, capacity over both
 * ledgers, project limits — then written: instances, allocations, and the
 * usage rows that sum them, together. Any failure throws and the
 * transaction rolls back, so a claim lands entirely or not at all.
 */
export async function applyClaim(db: Database, claim: Claim): Promise<ClaimResult> {
  const validated = await validateClaim(db, claim);
  await writeClaim(db, validated);
  return {
    instances: validated.stored,
    usage: await readMemberUsage(db, [...validated.touched].sort()),
  };
}

interface ValidatedClaim {
  removed: InstanceRecord[];
  stored: InstanceRecord[];
  memberIds: Map<string, number>;
  touched: Set<string>;
}

async function validateClaim(db: Database, claim: Claim): Promise<ValidatedClaim> {
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
  await checkNewIds(db, claim.create ?? [], added);
  for (const record of claim.create ?? []) added.push(record);
  await checkNames(db, added, new Set(removed.map((r) => r.id)));
  await requireProjects(db, added);

  const memberIds = await resolveMembers(db, removed, added);
  const touched = await checkCapacity(db, removed, added, oldById, memberIds);
  await checkProjectLimits(db, removed, added, claim.projectLimits ?? {});

  const stored = added.map((record) => ({
    ...structuredClone(record),
    revision: (oldById.get(record.id)?.revision ?? 0) + 1,
  }));
  return { removed, stored, memberIds, touched };
}

async function checkNewIds(db: Database, creates: NewInstance[], alreadyAdded: NewInstance[]): Promise<void> {
  const existing = new Set<string>();
  for (const part of chunks(
    creates.map((r) => r.id),
    900,
  )) {
    const rows = await db.select({ id: instances.id }).from(instances).where(inArray(instances.id, part));
    for (const row of rows) existing.add(row.id);
  }
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

async function checkNames(db: Database, added: NewInstance[], goneIds: Set<string>): Promise<void> {
  const namesByProject = new Map<string, string[]>();
  for (const record of added) {
    const list = namesByProject.get(record.project) ?? [];
    list.push(record.name);
    namesByProject.set(record.project, list);
  }
  const holders = new Map<string, string>();
  for (const [project, names] of namesByProject) {
    for (const part of chunks([...new Set(names)], 900)) {
      const rows = await db
        .select({ id: instances.id, name: instances.name })
        .from(instances)
        .where(and(eq(instances.project, project), inArray(instances.name, part)));
      for (const row of rows) holders.set(`${project}/${row.name}`, row.id);
    }
  }
  const claimed = new Set<string>();
  for (const record of added) {
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
async function requireProjects(db: Database, added: NewInstance[]): Promise<void> {
  const wanted = [...new Set(added.map((r) => r.project))];
  if (wanted.length === 0) return;
  const found = new Set(
    (await db.select({ name: projects.name }).from(projects).where(inArray(projects.name, wanted))).map(
      (p) => p.name,
    ),
  );
  const missing = wanted.find((name) => !found.has(name));
  if (missing !== undefined) throw notFound(`Project "${missing}" not found`);
}

async function resolveMembers(
  db: Database,
  removed: InstanceRecord[],
  added: NewInstance[],
): Promise<Map<string, number>> {
  const names = new Set<string>();
  for (const instance of [...removed, ...added]) {
    names.add(instance.location);
    for (const row of instance.allocations) names.add(row.member);
  }
  const ids = new Map<string, number>();
  for (const part of chunks([...names], 900)) {
    const rows = await db
      .select({ id: members.id, name: members.name })
      .from(members)
      .where(inArray(members.name, part));
    for (const row of rows) ids.set(row.name, row.id);
  }
  return ids;
}

/** Validates every grown allocation and returns the members the claim touches. */
async function checkCapacity(
  db: Database,
  removed: InstanceRecord[],
  added: NewInstance[],
  oldById: Map<string, InstanceRecord>,
  memberIds: Map<string, number>,
): Promise<Set<string>> {
  const inventoryOf = await loadInventories(db, [...memberIds.values()]);
  const delta = new Map<string, { member: string; resourceClass: string; change: number }>();
  const touched = new Set<string>();
  const add = (row: AllocationRow, sign: number) => {
    touched.add(row.member);
    const key = pairKey(row.member, row.resourceClass);
    const entry = delta.get(key) ?? { member: row.member, resourceClass: row.resourceClass, change: 0 };
    entry.change += sign * row.amount;
    delta.set(key, entry);
  };
  const memberMissing = (member: string) =>
    claimFailure("conflict", `Cluster member "${member}" no longer exists`, {
      reason: "member_missing",
      member,
    });
  const noInventory = (member: string, resourceClass: string) =>
    claimFailure("insufficient_capacity", `Cluster member "${member}" has no inventory of ${resourceClass}`, {
      reason: "no_inventory",
      member,
      resourceClass,
    });

  for (const old of removed) for (const row of old.allocations) add(row, -1);
  for (const record of added) {
    touched.add(record.location);
    if (!memberIds.has(record.location)) throw memberMissing(record.location);
    const old = oldById.get(record.id);
    for (const row of record.allocations) {
      if (row.amount === 0) continue;
      add(row, 1);
      const memberId = memberIds.get(row.member);
      if (memberId === undefined) throw memberMissing(row.member);
      // Only allocations that are new or grew must respect the inventory's
      // unit constraints; an unchanged one stays valid after an inventory edit.
      const before = old?.allocations
        .filter((o) => o.member === row.member && o.resourceClass === row.resourceClass)
        .reduce((sum, o) => sum + o.amount, 0);
      if (before !== undefined && row.amount <= before) continue;
      const inventory = inventoryOf.get(pairKey(String(memberId), row.resourceClass));
      if (inventory === undefined) throw noInventory(row.member, row.resourceClass);
      if (
        row.amount < inventory.minUnit ||
        row.amount > inventory.maxUnit ||
        row.amount % inventory.stepSize !== 0
      ) {
        throw claimFailure(
          "insufficient_capacity",
          `Allocation of ${row.amount} ${row.resourceClass} on cluster member "${row.member}" would violate inventory constraints`,
          {
            reason: "constraints",
            member: row.member,
            resourceClass: row.resourceClass,
            amount: row.amount,
            minUnit: inventory.minUnit,
            maxUnit: inventory.maxUnit,
            stepSize: inventory.stepSize,
          },
        );
      }
    }
  }

  const grown = [...delta.values()].filter((d) => d.change > 0 && memberIds.has(d.member));
  const consumed = await loadConsumption(db, [...new Set(grown.map((d) => memberIds.get(d.member)!))]);
  for (const { member, resourceClass, change } of grown) {
    const memberId = memberIds.get(member)!;
    const inventory = inventoryOf.get(pairKey(String(memberId), resourceClass));
    if (inventory === undefined) throw noInventory(member, resourceClass);
    // Both ledgers count: a reservation holds capacity exactly like an instance.
    const used = consumed.get(pairKey(String(memberId), resourceClass)) ?? 0;
    const capacity = capacityOf(inventory);
    if (used + change > capacity) {
      throw claimFailure(
        "insufficient_capacity",
        `Allocation of ${change} ${resourceClass} on cluster member "${member}" would exceed the capacity (used ${used} of ${capacity})`,
        { reason: "capacity", member, resourceClass, requested: change, used, capacity },
      );
    }
  }
  return new Set([...touched].filter((name) => memberIds.has(name)));
}

async function loadInventories(db: Database, memberIds: number[]): Promise<Map<string, InventoryRecord>> {
  const out = new Map<string, InventoryRecord>();
  for (const part of chunks(memberIds, 900)) {
    const rows = await db.select().from(inventories).where(inArray(inventories.memberId, part));
    for (const row of rows) out.set(pairKey(String(row.memberId), row.resourceClass), row);
  }
  return out;
}

/** used + forthcoming per (member id, class), from the usage rows. */
async function loadConsumption(db: Database, memberIds: number[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const part of chunks(memberIds, 900)) {
    const rows = await db
      .select({
        memberId: usage.memberId,
        resourceClass: usage.resourceClass,
        amount: sql<number>`sum(${usage.amount})`.mapWith(Number),
      })
      .from(usage)
      .where(inArray(usage.memberId, part))
      .groupBy(usage.memberId, usage.resourceClass);
    for (const row of rows) out.set(pairKey(String(row.memberId), row.resourceClass), row.amount);
  }
  return out;
}

async function checkProjectLimits(
  db: Database,
  removed: InstanceRecord[],
  added: NewInstance[],
  limits: Record<string, ProjectLimits>,
): Promise<void> {
  for (const [project, projectLimits] of Object.entries(limits)) {
    const change = projectChange(removed, added, project);
    if (!DIMENSIONS.some((d) => projectLimits[d] !== undefined && change[d] > 0)) continue;
    const [row] = await db.select().from(projectUsage).where(eq(projectUsage.project, project));
    const current = row ?? zeroTotals();
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

async function writeClaim(db: Database, claim: ValidatedClaim): Promise<void> {
  const { removed, stored, memberIds } = claim;
  // Old versions go first (replacements are rewritten whole); the cascade
  // takes their allocations and profile links with them.
  for (const part of chunks(
    removed.map((r) => r.id),
    900,
  )) {
    await db.delete(instances).where(inArray(instances.id, part));
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

  const instanceRows = stored.map((record) =>
    instanceRowOf(record, memberIds.get(record.location)!, record.revision),
  );
  for (const part of chunks(instanceRows, 400)) await db.insert(instances).values(part);

  const allocationRows = stored.flatMap((record) => mergedAllocations(record, memberIds));
  for (const part of chunks(allocationRows, 1500)) await db.insert(allocations).values(part);

  const profileRows = stored.flatMap((record) =>
    [...new Set(record.profiles)].map((profile) => ({
      instanceId: record.id,
      project: record.project,
      profile,
    })),
  );
  for (const part of chunks(profileRows, 3000)) await db.insert(instanceProfiles).values(part);

  const usageRows = [...usageDelta.values()].filter((row) => row.amount !== 0);
  for (const part of chunks(usageRows, 2000)) {
    await db
      .insert(usage)
      .values(part)
      .onConflictDoUpdate({
        target: [usage.memberId, usage.resourceClass, usage.ledger],
        set: { amount: sql`${usage.amount} + excluded.amount` },
      });
  }

  for (const [project, totals] of projectDelta) {
    if (DIMENSIONS.every((d) => totals[d] === 0)) continue;
    await db
      .insert(projectUsage)
      .values({ project, ...totals })
      .onConflictDoUpdate({
        target: projectUsage.project,
        set: {
          instances: sql`${projectUsage.instances} + excluded.instances`,
          containers: sql`${projectUsage.containers} + excluded.containers`,
          virtualMachines: sql`${projectUsage.virtualMachines} + excluded.virtual_machines`,
          cpu: sql`${projectUsage.cpu} + excluded.cpu`,
          memoryBytes: sql`${projectUsage.memoryBytes} + excluded.memory_bytes`,
          diskBytes: sql`${projectUsage.diskBytes} + excluded.disk_bytes`,
        },
      });
  }
}

/** One row per (member, class, ledger): repeated rows in a record are summed. */
function mergedAllocations(
  record: InstanceRecord,
  memberIds: Map<string, number>,
): (typeof allocations.$inferInsert)[] {
  const merged = new Map<string, typeof allocations.$inferInsert>();
  for (const row of record.allocations) {
    const memberId = memberIds.get(row.member);
    // Only zero-amount rows can name a member that is gone (validation
    // rejected the rest); there is nothing to record for them.
    if (memberId === undefined) continue;
    const key = `${memberId}\u0000${row.resourceClass}\u0000${row.ledger}`;
    const existing = merged.get(key);
    if (existing !== undefined) existing.amount += row.amount;
    else
      merged.set(key, {
        instanceId: record.id,
        memberId,
        resourceClass: row.resourceClass,
        ledger: row.ledger,
        amount: row.amount,
      });
  }
  return [...merged.values()];
}
