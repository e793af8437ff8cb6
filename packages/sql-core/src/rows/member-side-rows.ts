import type { ChangeEntry, MemberRecord } from "@berth/engine";
import type { SqlRunner } from "../runner/runner.js";
import { loadMembers } from "./members.js";

/** `(?, ?, ?), (?, ?, ?)`: a multi-row VALUES list of `rows`' length and width. */
export function valuesOf(rows: readonly unknown[][]): string {
  return rows.map((row) => `(${row.map(() => "?").join(", ")})`).join(", ");
}

/** A member's groups, in their order. */
export async function writeMemberGroups(
  db: SqlRunner,
  memberId: number,
  groups: readonly string[],
): Promise<void> {
  if (groups.length === 0) return;
  const rows = groups.map((group, position) => [memberId, group, position]);
  await db.run(
    `INSERT INTO member_groups (member_id, group_name, position) VALUES ${valuesOf(rows)}`,
    rows.flat(),
  );
}

export async function writeMemberTraits(
  db: SqlRunner,
  memberId: number,
  traits: readonly string[],
): Promise<void> {
  if (traits.length === 0) return;
  const rows = traits.map((trait) => [memberId, trait]);
  await db.run(`INSERT INTO member_traits (member_id, trait) VALUES ${valuesOf(rows)}`, rows.flat());
}

/**
 * Writes a checked group membership change (engine `checkGroupMembers`):
 * each changed member's groups replaced, the entries appended; answers the
 * changed members as stored now.
 */
export async function writeGroupMembers(
  db: SqlRunner,
  checked: {
    writes: readonly { name: string; joinOrder: number; groups: string[] }[];
    entries: ChangeEntry[];
  },
  append: (entries: ChangeEntry[]) => Promise<void>,
): Promise<MemberRecord[]> {
  for (const write of checked.writes) {
    await db.run("DELETE FROM member_groups WHERE member_id = ?", [write.joinOrder]);
    await writeMemberGroups(db, write.joinOrder, write.groups);
  }
  if (checked.entries.length > 0) await append(checked.entries);
  return loadMembers(
    db,
    checked.writes.map((write) => write.name),
  );
}
