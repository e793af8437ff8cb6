/**
 * Member writes. Each locks the member's row first (`FOR NO KEY UPDATE`,
 * the lock claims take), so an inventory edit and a claim on the same
 * member never interleave, on this server or any other. Every write but a
 * heartbeat appends a change-feed entry naming the member. Each reads the
 * rows the engine's write rules (write-rules/) judge, calls them, and
 * writes what they return.
 */
import {
  checkGroupMembers,
  checkMemberCreate,
  checkMemberDelete,
  checkMemberGeneration,
  checkMemberInventories,
  checkMemberUpdate,
  customClassesOf,
  grandfatheredUsage,
  type InventoryRecord,
  type MemberPatch,
  type MemberRecord,
  memberEntry,
  type NewMember,
  requireMemberRow,
} from "@berth/engine";
import { writeGroupMembers, writeMemberGroups, writeMemberTraits } from "@berth/sql-core";
import type { Tx } from "../connection/pools.js";
import { lockMembers, readProviders } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";
import { loadMember, loadMembers } from "./member-rows.js";
import { txRunner } from "./runners.js";

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
  const locked = requireMemberRow(name, row);
  checkMemberGeneration(name, expectedGeneration, locked.generation);
  return locked;
}

/** Which of `names` are stored groups (share-locked so they cannot go before this commits). */
async function foundGroups(tx: Tx, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  return new Set(
    (
      await tx.rows<{ name: string }>("SELECT name FROM groups WHERE name = ANY($1::text[]) FOR KEY SHARE", [
        [...names],
      ])
    ).map((row) => row.name),
  );
}

/** Which custom classes of `classes` are stored (standard classes are built in), share-locked. */
async function foundClasses(tx: Tx, classes: readonly string[]): Promise<Set<string>> {
  const custom = customClassesOf(classes);
  if (custom.length === 0) return new Set();
  return new Set(
    (
      await tx.rows<{ name: string }>(
        "SELECT name FROM resource_classes WHERE name = ANY($1::text[]) FOR KEY SHARE",
        [custom],
      )
    ).map((row) => row.name),
  );
}

const writeGroups = (tx: Tx, memberId: number, groups: string[]) =>
  writeMemberGroups(txRunner(tx), memberId, groups);
const writeTraits = (tx: Tx, memberId: number, traits: string[]) =>
  writeMemberTraits(txRunner(tx), memberId, traits);

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
      grandfatheredUsage(inventory, used),
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

export async function createMember(tx: Tx, given: NewMember, now: string): Promise<MemberRecord> {
  const [taken] = await tx.rows("SELECT 1 FROM members WHERE name = $1", [given.name]);
  const member = checkMemberCreate(given, {
    taken: taken !== undefined,
    groups: await foundGroups(tx, given.groups),
    customClasses: await foundClasses(tx, Object.keys(given.inventories)),
  });
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
  await appendChanges(tx, [memberEntry(member.name, id, "created")]);
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

export async function updateMember(
  tx: Tx,
  name: string,
  patch: MemberPatch,
  expectedGeneration: number | undefined,
  expectedFields?: MemberPatch,
): Promise<MemberRecord> {
  const current = await lockMember(tx, name, undefined);
  const stored = expectedFields === undefined ? {} : await loadMember(tx, name);
  const checked = checkMemberUpdate(
    name,
    patch,
    { generation: expectedGeneration, fields: expectedFields },
    {
      member: { ...stored, generation: current.generation, joinOrder: current.id },
      groups: await foundGroups(tx, patch.groups ?? []),
    },
  );
  if (checked.patch.groups !== undefined) {
    await tx.run("DELETE FROM member_groups WHERE member_id = $1", [current.id]);
    await writeGroups(tx, current.id, checked.patch.groups);
  }
  if (checked.patch.traits !== undefined) {
    await tx.run("DELETE FROM member_traits WHERE member_id = $1", [current.id]);
    await writeTraits(tx, current.id, checked.patch.traits);
  }
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const [field, value] of Object.entries(checked.patch)) {
    const column = COLUMN_OF[field];
    if (column === undefined) continue;
    values.push(JSON_FIELDS.has(field) && value !== null ? JSON.stringify(value) : value);
    sets.push(`${column} = $${values.length}`);
  }
  if (checked.generation !== current.generation) {
    values.push(checked.generation);
    sets.push(`generation = $${values.length}`);
  }
  if (sets.length > 0) {
    values.push(current.id);
    await tx.run(`UPDATE members SET ${sets.join(", ")} WHERE id = $${values.length}`, values);
  }
  if (checked.entry !== undefined) await appendChanges(tx, [checked.entry]);
  return (await loadMember(tx, name))!;
}

/** The names of the members in `group` now. */
async function groupHolders(tx: Tx, group: string): Promise<string[]> {
  const rows = await tx.rows<{ name: string }>(
    "SELECT m.name FROM member_groups mg JOIN members m ON m.id = mg.member_id WHERE mg.group_name = $1",
    [group],
  );
  return rows.map((row) => row.name);
}

/**
 * Replaces a cluster group's member list: the group share-locked, the
 * members named and the members in it now locked (in name order, as
 * claims lock members; one that joined the group meanwhile is locked
 * after them), then judged and written.
 */
export async function setGroupMembers(
  tx: Tx,
  group: string,
  wanted: readonly string[],
): Promise<MemberRecord[]> {
  const groupExists = (await foundGroups(tx, [group])).has(group);
  const locked = new Set<string>();
  for (let names = [...wanted, ...(await groupHolders(tx, group))]; ; ) {
    const more = names.filter((name) => !locked.has(name));
    if (more.length === 0) break;
    for (const member of await lockMembers(tx, more)) locked.add(member.name);
    for (const name of more) locked.add(name);
    names = await groupHolders(tx, group);
  }
  const checked = checkGroupMembers(group, wanted, {
    groupExists,
    members: await loadMembers(tx, [...locked]),
  });
  return writeGroupMembers(txRunner(tx), checked, (entries) => appendChanges(tx, entries));
}

export async function setInventories(
  tx: Tx,
  name: string,
  records: Record<string, InventoryRecord>,
  expectedGeneration: number,
): Promise<MemberRecord> {
  const current = await lockMember(tx, name, undefined);
  const consumed = await tx.rows<{ resource_class: string; amount: number }>(
    "SELECT resource_class, sum(amount)::bigint AS amount FROM usage WHERE member_id = $1 GROUP BY resource_class",
    [current.id],
  );
  // One ledger: the root provider's consumers hold classes as the member's instances do.
  const ledger = (await readProviders(tx, [name])).providers.get(name);
  const checked = checkMemberInventories(name, records, expectedGeneration, {
    member: { generation: current.generation, joinOrder: current.id },
    customClasses: await foundClasses(tx, Object.keys(records)),
    ledger: ledger ?? { inventories: {}, used: {}, forthcoming: {} },
  });
  await tx.run("DELETE FROM inventories WHERE member_id = $1", [current.id]);
  await writeInventories(
    tx,
    current.id,
    records,
    new Map(consumed.map((row) => [row.resource_class, row.amount])),
  );
  await tx.run("UPDATE members SET generation = $1 WHERE id = $2", [checked.generation, current.id]);
  await appendChanges(tx, [checked.entry]);
  return (await loadMember(tx, name))!;
}

export async function deleteMember(tx: Tx, name: string): Promise<void> {
  const current = await lockMember(tx, name, undefined, "FOR UPDATE");
  const [hosted] = await tx.rows<{ name: string }>(
    "SELECT name FROM instances WHERE member_id = $1 OR secondary_id = $1 LIMIT 1",
    [current.id],
  );
  const [allocated] = await tx.rows<{ instance_id: string }>(
    "SELECT instance_id FROM allocations WHERE member_id = $1 LIMIT 1",
    [current.id],
  );
  checkMemberDelete(name, { hostedInstance: hosted?.name, allocatedInstance: allocated?.instance_id });
  await tx.run("DELETE FROM members WHERE id = $1", [current.id]);
  await appendChanges(tx, [memberEntry(name, current.id, "deleted")]);
}
