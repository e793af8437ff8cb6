/**
 * A member's root provider written through Placement in SQLite (engine
 * claim-rules/member-root.ts), inside the caller's write transaction: the
 * member read with its one ledger (readProviders: instances, reservations
 * and the root's consumers) and generation, the root's row if it has one;
 * the engine's rules judge them; inventories and traits are written on
 * the member (member-writes.ts: its generation moves, a member feed
 * entry), aggregates and Placement's part of the generation on the row
 * (created when missing). The reshaper reads and writes member roots
 * through the same pieces.
 */
import {
  checkMemberRootWrite,
  type MemberRecord,
  type MemberRootRows,
  type MemberRootWrite,
  type MemberRootWriters,
  type MemberRootWritten,
  memberProviderUuid,
  type ProviderRecord,
  requireMemberRow,
  writeCheckedMemberRoot,
} from "@berth/engine";
import { eq } from "drizzle-orm";
import type { Database, RawSql } from "../connection/open-connection.js";
import { providers } from "../schema/index.js";
import { readProviders } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";
import { IN_JSON, jsonParameter } from "./json-rows.js";
import { loadMember } from "./member-rows.js";
import { setInventories, updateMember } from "./member-writes.js";

async function storedRow(db: Database, uuid: string): Promise<ProviderRecord | undefined> {
  const [row] = await db.select().from(providers).where(eq(providers.uuid, uuid));
  return row;
}

/**
 * Writes a member root's row at `generation` (aggregates: when given),
 * creating it when missing. It keeps no inventories or traits of its own.
 */
async function writeRootRow(
  raw: RawSql,
  member: string,
  generation: number,
  aggregates: readonly string[] | undefined,
  now: string,
): Promise<void> {
  await raw.run(
    `INSERT INTO providers (uuid, name, parent_uuid, root_uuid, generation, inventories, traits, aggregates,
       created_at, updated_at)
     VALUES (?1, ?2, NULL, ?1, ?3, '{}', '[]', coalesce(?4, '[]'), ?5, ?5)
     ON CONFLICT (uuid) DO UPDATE SET generation = ?3, inventories = '{}', traits = '[]',
       aggregates = coalesce(?4, providers.aggregates), updated_at = ?5`,
    [
      memberProviderUuid(member),
      member,
      generation,
      aggregates === undefined ? null : JSON.stringify(aggregates),
      now,
    ],
  );
  await appendChanges(raw, [{ kind: "catalog", table: "providers" }]);
}

export async function writeMemberRoot(
  db: Database,
  raw: RawSql,
  write: MemberRootWrite,
  now: string,
): Promise<MemberRootWritten> {
  const member = requireMemberRow(write.member, (await memberLedgers(raw, [write.member])).get(write.member));
  const uuid = memberProviderUuid(write.member);
  const row = await storedRow(db, uuid);
  const checked = checkMemberRootWrite(write, { member, row });
  await writeCheckedMemberRoot(write, member.generation, checked, writersOf(db, raw, now));
  return { member: (await loadMember(raw, write.member)) as MemberRecord, row: await storedRow(db, uuid) };
}

/** The named members' one ledgers (instances, reservations, their roots' consumers) and generations. */
export async function memberLedgers(
  raw: RawSql,
  names: readonly string[],
): Promise<Map<string, MemberRootRows["member"]>> {
  const out = new Map<string, MemberRootRows["member"]>();
  if (names.length === 0) return out;
  const ledgers = (await readProviders(raw, names)).rows;
  const rows = await raw.rows(`SELECT name, generation FROM members WHERE name IN ${IN_JSON}`, [
    jsonParameter(names),
  ]);
  for (const row of rows) {
    const ledger = ledgers.get(String(row.name));
    if (ledger !== undefined) out.set(String(row.name), { ...ledger, generation: Number(row.generation) });
  }
  return out;
}

/** This Store's writes of a member's root (member-writes.ts for the member, the row here). */
export function writersOf(db: Database, raw: RawSql, now: string): MemberRootWriters {
  return {
    inventories: (member, inventories, generation) =>
      setInventories(db, raw, member, inventories, generation),
    traits: (member, traits, generation) => updateMember(db, raw, member, { traits }, generation),
    row: (member, generation, aggregates) => writeRootRow(raw, member, generation, aggregates, now),
  };
}
