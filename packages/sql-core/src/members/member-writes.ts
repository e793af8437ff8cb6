/**
 * Member writes inside the caller's write transaction, the same in both
 * dialects: each reads the rows the engine's write rules (write-rules/)
 * judge, calls them, and writes what they return. The member's row is
 * locked first where the dialect has row locks (`FOR NO KEY UPDATE`, the
 * lock claims take), so an inventory edit and a claim on the same member
 * never interleave. Every write but a heartbeat appends a change-feed
 * entry naming the member.
 */
import {
  checkGroupMembers,
  checkMemberCreate,
  checkMemberDelete,
  checkMemberInventories,
  checkMemberUpdate,
  type InventoryRecord,
  type MemberPatch,
  type MemberRecord,
  memberEntry,
  memberGenerationConflict,
  type NewMember,
} from "@berth/engine";
import { writeGroupMembers, writeMemberGroups, writeMemberTraits } from "../rows/member-side-rows.js";
import { loadMember, loadMembers } from "../rows/members.js";
import { readMemberProviders } from "../rows/provider-tuples.js";
import { first, type SqlParam, type SqlRunner } from "../runner/runner.js";
import { jsonParam } from "../runner/values.js";
import { foundClasses, foundGroups, lockMember, usedByClass, writeInventories } from "./member-lookups.js";
import type { MemberSide } from "./member-side.js";

/** The member columns a patch may set, by field; JSON ones are bound as JSON text. */
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

const columnValue = (field: string, value: unknown): SqlParam =>
  value !== null && JSON_FIELDS.has(field) ? jsonParam(value) : (value as SqlParam);

export async function createMember(
  db: SqlRunner,
  side: MemberSide,
  given: NewMember,
  now: string,
): Promise<MemberRecord> {
  const taken = await first(db, "SELECT 1 AS one FROM members WHERE name = ?", [given.name]);
  const member = checkMemberCreate(given, {
    taken: taken !== undefined,
    groups: await foundGroups(db, given.groups),
    customClasses: await foundClasses(db, Object.keys(given.inventories)),
  });
  const fields = Object.keys(COLUMN_OF) as (keyof typeof COLUMN_OF & keyof NewMember)[];
  const [inserted] = await db.all<{ id: number }>(
    `INSERT INTO members (name, ${fields.map((field) => COLUMN_OF[field]).join(", ")}, generation, created_at)
     VALUES (?, ${fields.map(() => "?").join(", ")}, 1, ?) RETURNING id`,
    [member.name, ...fields.map((field) => columnValue(field, member[field])), now],
  );
  const id = Number(inserted!.id);
  await writeMemberGroups(db, id, member.groups);
  await writeMemberTraits(db, id, member.traits);
  await writeInventories(db, id, member.inventories);
  await side.append([memberEntry(member.name, id, "created")]);
  return (await loadMember(db, member.name))!;
}

export async function updateMember(
  db: SqlRunner,
  side: MemberSide,
  name: string,
  patch: MemberPatch,
  expectedGeneration: number | undefined,
  expectedFields?: MemberPatch,
): Promise<MemberRecord> {
  const current = await lockMember(db, name, undefined);
  const stored = expectedFields === undefined ? {} : await loadMember(db, name);
  const checked = checkMemberUpdate(
    name,
    patch,
    { generation: expectedGeneration, fields: expectedFields },
    {
      member: { ...stored, generation: current.generation, joinOrder: current.id },
      groups: await foundGroups(db, patch.groups ?? []),
    },
  );
  if (checked.patch.groups !== undefined) {
    await db.run("DELETE FROM member_groups WHERE member_id = ?", [current.id]);
    await writeMemberGroups(db, current.id, checked.patch.groups);
  }
  if (checked.patch.traits !== undefined) {
    await db.run("DELETE FROM member_traits WHERE member_id = ?", [current.id]);
    await writeMemberTraits(db, current.id, checked.patch.traits);
  }
  const sets: string[] = [];
  const values: SqlParam[] = [];
  for (const [field, value] of Object.entries(checked.patch)) {
    const column = COLUMN_OF[field];
    if (column === undefined) continue;
    sets.push(`${column} = ?`);
    values.push(columnValue(field, value));
  }
  if (checked.generation !== current.generation) {
    sets.push("generation = ?");
    values.push(checked.generation);
  }
  if (sets.length > 0)
    await db.run(`UPDATE members SET ${sets.join(", ")} WHERE id = ?`, [...values, current.id]);
  if (checked.entry !== undefined) await side.append([checked.entry]);
  return (await loadMember(db, name))!;
}

/** The names of the members in `group` now. */
async function groupHolders(db: SqlRunner, group: string): Promise<string[]> {
  const rows = await db.all<{ name: string }>(
    "SELECT m.name FROM member_groups mg JOIN members m ON m.id = mg.member_id WHERE mg.group_name = ?",
    [group],
  );
  return rows.map((row) => row.name);
}

/**
 * Replaces a cluster group's member list: the group share-locked, the
 * members named and the members in it now locked (as claims lock members;
 * one that joined the group meanwhile is locked after them), then judged
 * and written.
 */
export async function setGroupMembers(
  db: SqlRunner,
  side: MemberSide,
  group: string,
  wanted: readonly string[],
): Promise<MemberRecord[]> {
  const groupExists = (await foundGroups(db, [group])).has(group);
  const locked = new Set<string>();
  for (let names = [...wanted, ...(await groupHolders(db, group))]; ; ) {
    const more = names.filter((name) => !locked.has(name));
    if (more.length === 0) break;
    await side.lockMembers(more);
    for (const name of more) locked.add(name);
    names = await groupHolders(db, group);
  }
  const checked = checkGroupMembers(group, wanted, {
    groupExists,
    members: await loadMembers(db, [...locked]),
  });
  return writeGroupMembers(db, checked, (entries) => side.append(entries));
}

export async function setInventories(
  db: SqlRunner,
  side: MemberSide,
  name: string,
  records: Record<string, InventoryRecord>,
  expectedGeneration: number,
): Promise<MemberRecord> {
  const current = await lockMember(db, name, undefined);
  // One ledger: the root provider's consumers hold classes as the member's instances do.
  const ledger = (await readMemberProviders(db, [name])).rows.get(name);
  const checked = checkMemberInventories(name, records, expectedGeneration, {
    member: { generation: current.generation, joinOrder: current.id },
    customClasses: await foundClasses(db, Object.keys(records)),
    ledger: ledger ?? { inventories: {}, used: {}, forthcoming: {} },
  });
  const used = await usedByClass(db, current.id);
  await db.run("DELETE FROM inventories WHERE member_id = ?", [current.id]);
  await writeInventories(db, current.id, records, used);
  // Conditional on the generation read above: belt and braces for a
  // transaction that does not hold the member's row (or the file) from its start.
  const bumped = await db.run("UPDATE members SET generation = ? WHERE id = ? AND generation = ?", [
    checked.generation,
    current.id,
    current.generation,
  ]);
  if (bumped !== 1) throw memberGenerationConflict(name, expectedGeneration, current.generation);
  await side.append([checked.entry]);
  return (await loadMember(db, name))!;
}

export async function deleteMember(db: SqlRunner, side: MemberSide, name: string): Promise<void> {
  const current = await lockMember(db, name, undefined, "FOR UPDATE");
  const hosted = await first<{ name: string }>(
    db,
    "SELECT name FROM instances WHERE member_id = ? OR secondary_id = ? LIMIT 1",
    [current.id, current.id],
  );
  const allocated = await first<{ instance_id: string }>(
    db,
    "SELECT instance_id FROM allocations WHERE member_id = ? LIMIT 1",
    [current.id],
  );
  checkMemberDelete(name, { hostedInstance: hosted?.name, allocatedInstance: allocated?.instance_id });
  await db.run("DELETE FROM members WHERE id = ?", [current.id]);
  await side.append([memberEntry(name, current.id, "deleted")]);
}
