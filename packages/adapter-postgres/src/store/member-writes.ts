/**
 * Member writes. Each locks the member's row first (`FOR NO KEY UPDATE`,
 * the lock claims take), so an inventory edit and a claim on the same
 * member never interleave, on this server or any other. Every write but a
 * heartbeat appends a change-feed entry naming the member.
 */
import {
  conflict,
  consumedOf,
  type InventoryRecord,
  inventoryInUse,
  type MemberPatch,
  type MemberRecord,
  type NewMember,
  notFound,
} from "@berth/engine";
import { inventoryCapacity, isCustomResourceClass } from "@berth/resources";
import type { Tx } from "../connection/pools.js";
import { readProviders } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";
import { loadMember } from "./member-rows.js";

interface LockedMember {
  id: number;
  generation: number;
}

async function lockMember(
  tx: Tx,
  name: string,
  expectedGeneration: number | undefined,
  mode: "FOR UPDATE" | "FOR NO KEY UPDATE" = "FOR NO KEY UPDATE",
): Promise<LockedMember> {
  const [row] = await tx.rows<LockedMember>(`SELECT id, generation FROM members WHERE name = $1 ${mode}`, [
    name,
  ]);
  if (row === undefined) throw notFound(`Cluster member "${name}" not found`);
  if (expectedGeneration !== undefined && expectedGeneration !== row.generation) {
    throw generationConflict(name, expectedGeneration, row.generation);
  }
  return row;
}

function generationConflict(name: string, expected: number, actual: number) {
  return conflict(`Cluster member "${name}" generation conflict: expected ${expected}, current ${actual}`, {
    reason: "generation",
    member: name,
    expected,
    actual,
  });
}

async function requireGroups(tx: Tx, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const found = new Set(
    (
      await tx.rows<{ name: string }>("SELECT name FROM groups WHERE name = ANY($1::text[]) FOR KEY SHARE", [
        names,
      ])
    ).map((row) => row.name),
  );
  const missing = names.find((name) => !found.has(name));
  if (missing !== undefined) throw notFound(`Cluster group "${missing}" not found`);
}

/** Standard classes are built in; custom ones must have been created first. */
async function requireCustomClasses(tx: Tx, classes: string[]): Promise<void> {
  const custom = classes.filter(isCustomResourceClass);
  if (custom.length === 0) return;
  const found = new Set(
    (
      await tx.rows<{ name: string }>(
        "SELECT name FROM resource_classes WHERE name = ANY($1::text[]) FOR KEY SHARE",
        [custom],
      )
    ).map((row) => row.name),
  );
  const missing = custom.find((name) => !found.has(name));
  if (missing !== undefined) throw notFound(`Resource class "${missing}" not found`);
}

async function writeGroups(tx: Tx, memberId: number, names: string[]): Promise<void> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return;
  await tx.run(
    "INSERT INTO member_groups (member_id, group_name, position) SELECT $1, g, n - 1 FROM unnest($2::text[]) WITH ORDINALITY AS t(g, n)",
    [memberId, unique],
  );
}

async function writeTraits(tx: Tx, memberId: number, traits: string[]): Promise<void> {
  const unique = [...new Set(traits)];
  if (unique.length === 0) return;
  await tx.run("INSERT INTO member_traits (member_id, trait) SELECT $1, unnest($2::text[])", [
    memberId,
    unique,
  ]);
}

async function writeInventories(
  tx: Tx,
  memberId: number,
  records: Record<string, InventoryRecord>,
  usedByClass: ReadonlyMap<string, number> = new Map(),
): Promise<void> {
  const entries = Object.entries(records);
  if (entries.length === 0) return;
  const rows = entries.map(([resourceClass, inventory]) => {
    const used = usedByClass.get(resourceClass) ?? 0;
    return [
      resourceClass,
      inventory.total,
      inventory.reserved,
      inventory.minUnit,
      inventory.maxUnit,
      inventory.stepSize,
      inventory.allocationRatio,
      inventory.source,
      used > inventoryCapacity(inventory) ? used : 0,
    ];
  });
  await tx.run(
    `INSERT INTO inventories (member_id, resource_class, total, reserved, min_unit, max_unit, step_size,
                              allocation_ratio, source, grandfathered_usage)
     SELECT $1, r->>0, (r->>1)::bigint, (r->>2)::bigint, (r->>3)::bigint, (r->>4)::bigint, (r->>5)::bigint,
            (r->>6)::float8, r->>7, (r->>8)::bigint
     FROM jsonb_array_elements($2::jsonb) AS r`,
    [memberId, JSON.stringify(rows)],
  );
}

export async function createMember(tx: Tx, member: NewMember, now: string): Promise<MemberRecord> {
  const [taken] = await tx.rows("SELECT 1 FROM members WHERE name = $1", [member.name]);
  if (taken !== undefined) throw conflict(`Cluster member "${member.name}" already exists`);
  await requireGroups(tx, member.groups);
  await requireCustomClasses(tx, Object.keys(member.inventories));
  const [inserted] = await tx.rows<{ id: number }>(
    `INSERT INTO members (name, url, architecture, description, failure_domain, roles, config, evacuated,
                          last_heartbeat, state, resources, generation, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12) RETURNING id`,
    [
      member.name,
      member.url,
      member.architecture,
      member.description,
      member.failureDomain,
      JSON.stringify(member.roles),
      JSON.stringify(member.config),
      member.evacuated,
      member.lastHeartbeat,
      member.state === null ? null : JSON.stringify(member.state),
      member.resources === null ? null : JSON.stringify(member.resources),
      now,
    ],
  );
  const id = inserted!.id;
  await writeGroups(tx, id, member.groups);
  await writeTraits(tx, id, member.traits);
  await writeInventories(tx, id, member.inventories);
  await appendChanges(tx, [{ kind: "member", name: member.name, joinOrder: id, change: "created" }]);
  return (await loadMember(tx, member.name))!;
}

const COLUMN_OF: Record<string, string> = {
  url: "url",
  architecture: "architecture",
  description: "description",
  failureDomain: "failure_domain",
  roles: "roles",
  config: "config",
  evacuated: "evacuated",
  lastHeartbeat: "last_heartbeat",
  state: "state",
  resources: "resources",
};
const JSON_FIELDS = new Set(["roles", "config", "state", "resources"]);

/** Whether a patch changes what other engines must re-read (anything but the heartbeat and state). */
export function patchMovesFeed(patch: MemberPatch): boolean {
  return Object.keys(patch).some((field) => field !== "lastHeartbeat" && field !== "state");
}

export async function updateMember(
  tx: Tx,
  name: string,
  patch: MemberPatch,
  expectedGeneration: number | undefined,
): Promise<MemberRecord> {
  const current = await lockMember(tx, name, expectedGeneration);
  if (patch.groups !== undefined) {
    await requireGroups(tx, patch.groups);
    await tx.run("DELETE FROM member_groups WHERE member_id = $1", [current.id]);
    await writeGroups(tx, current.id, patch.groups);
  }
  if (patch.traits !== undefined) {
    await tx.run("DELETE FROM member_traits WHERE member_id = $1", [current.id]);
    await writeTraits(tx, current.id, patch.traits);
  }
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [field, value] of Object.entries(patch)) {
    const column = COLUMN_OF[field];
    if (column === undefined) continue;
    values.push(JSON_FIELDS.has(field) && value !== null ? JSON.stringify(value) : value);
    sets.push(`${column} = $${values.length}`);
  }
  // Placement's rule: traits are part of what a plan was made against, so
  // changing them moves the generation; heartbeats and state do not.
  if (patch.traits !== undefined) sets.push("generation = generation + 1");
  if (sets.length > 0) {
    values.push(current.id);
    await tx.run(`UPDATE members SET ${sets.join(", ")} WHERE id = $${values.length}`, values);
  }
  if (patchMovesFeed(patch))
    await appendChanges(tx, [{ kind: "member", name, joinOrder: current.id, change: "updated" }]);
  return (await loadMember(tx, name))!;
}

export async function setInventories(
  tx: Tx,
  name: string,
  records: Record<string, InventoryRecord>,
  expectedGeneration: number,
): Promise<MemberRecord> {
  const current = await lockMember(tx, name, expectedGeneration);
  await requireCustomClasses(tx, Object.keys(records));
  const consumed = await tx.rows<{ resource_class: string; amount: number }>(
    "SELECT resource_class, sum(amount)::bigint AS amount FROM usage WHERE member_id = $1 GROUP BY resource_class",
    [current.id],
  );
  // One ledger: the root provider's consumers hold classes as the member's instances do.
  const shared = (await readProviders(tx, [name])).providers.get(name);
  const [first] = shared === undefined ? [] : inventoryInUse(shared, records);
  if (shared !== undefined && first !== undefined) {
    throw conflict(
      `Cannot remove inventory of ${first} from cluster member "${name}": ${consumedOf(shared, first)} allocated`,
      { reason: "inventory_in_use", classes: inventoryInUse(shared, records) },
    );
  }
  await tx.run("DELETE FROM inventories WHERE member_id = $1", [current.id]);
  await writeInventories(
    tx,
    current.id,
    records,
    new Map(consumed.map((row) => [row.resource_class, row.amount])),
  );
  await tx.run("UPDATE members SET generation = generation + 1 WHERE id = $1", [current.id]);
  await appendChanges(tx, [{ kind: "member", name, joinOrder: current.id, change: "updated" }]);
  return (await loadMember(tx, name))!;
}

export async function deleteMember(tx: Tx, name: string): Promise<void> {
  const current = await lockMember(tx, name, undefined, "FOR UPDATE");
  const [hosted] = await tx.rows<{ name: string }>(
    "SELECT name FROM instances WHERE member_id = $1 OR secondary_id = $1 LIMIT 1",
    [current.id],
  );
  if (hosted !== undefined) {
    throw conflict(`Cluster member "${name}" still hosts instances (e.g. "${hosted.name}")`);
  }
  const [allocated] = await tx.rows<{ instance_id: string }>(
    "SELECT instance_id FROM allocations WHERE member_id = $1 LIMIT 1",
    [current.id],
  );
  if (allocated !== undefined) {
    throw conflict(`Cluster member "${name}" still holds allocations of instance ${allocated.instance_id}`);
  }
  await tx.run("DELETE FROM members WHERE id = $1", [current.id]);
  await appendChanges(tx, [{ kind: "member", name, joinOrder: current.id, change: "deleted" }]);
}
