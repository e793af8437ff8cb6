/**
 * A member's root provider written through Placement in PostgreSQL (engine
 * claim-rules/member-root.ts), inside the caller's write transaction. Locks
 * are taken as a consumer claim takes them, the root's row first, then the
 * member's row: a write of the root first stores its row if it has none
 * (generation 0, nothing else: Placement's generation of the root does not
 * move), so two writers of one root always meet on that row. Then the
 * member is read with its one ledger (readProviders: instances,
 * reservations, the root's consumers) and its generation; the engine's
 * rules judge them; inventories and traits are written on the member
 * (member-writes.ts: its generation moves, a member feed entry),
 * aggregates and Placement's part of the generation on the row. The
 * reshaper reads and writes member roots through the same pieces.
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
import type { Tx } from "../connection/pools.js";
import { lockMembers, readProviders } from "./claim-reads.js";
import { appendChanges } from "./feed-writes.js";
import { loadMember } from "./member-rows.js";
import { setInventories, updateMember } from "./member-writes.js";

const PROVIDER_FIELDS = `uuid, name, parent_uuid AS "parentUuid", root_uuid AS "rootUuid", generation,
  inventories, traits, aggregates, created_at AS "createdAt", updated_at AS "updatedAt"`;

async function storedRow(tx: Tx, uuid: string, lock = ""): Promise<ProviderRecord | undefined> {
  const [row] = await tx.rows<ProviderRecord>(
    `SELECT ${PROVIDER_FIELDS} FROM providers WHERE uuid = $1 ${lock}`,
    [uuid],
  );
  return row === undefined ? undefined : { ...row, generation: Number(row.generation) };
}

/**
 * Writes a member root's row at `generation` (aggregates: when given),
 * creating it when missing. It keeps no inventories or traits of its own.
 */
async function writeRootRow(
  tx: Tx,
  member: string,
  generation: number,
  aggregates: readonly string[] | undefined,
  now: string,
): Promise<void> {
  await tx.run(
    `INSERT INTO providers (uuid, name, parent_uuid, root_uuid, generation, inventories, traits, aggregates,
       created_at, updated_at)
     VALUES ($1, $2, NULL, $1, $3, '{}', '[]', coalesce($4::jsonb, '[]'), $5, $5)
     ON CONFLICT (uuid) DO UPDATE SET generation = $3, inventories = '{}', traits = '[]',
       aggregates = coalesce($4::jsonb, providers.aggregates), updated_at = $5`,
    [
      memberProviderUuid(member),
      member,
      generation,
      aggregates === undefined ? null : JSON.stringify(aggregates),
      now,
    ],
  );
  await appendChanges(tx, [{ kind: "catalog", table: "providers" }]);
}

/**
 * The named members' one ledgers (instances, reservations, their roots'
 * consumers) and generations, their rows locked (after the providers, in
 * name order, as claims lock them).
 */
export async function memberLedgers(
  tx: Tx,
  names: readonly string[],
): Promise<Map<string, MemberRootRows["member"]>> {
  const out = new Map<string, MemberRootRows["member"]>();
  if (names.length === 0) return out;
  const locked = await lockMembers(tx, names);
  const ledgers = (
    await readProviders(
      tx,
      locked.map((member) => member.name),
    )
  ).providers;
  const rows = await tx.rows<{ name: string; generation: number }>(
    "SELECT name, generation FROM members WHERE name = ANY($1::text[])",
    [[...names]],
  );
  for (const row of rows) {
    const ledger = ledgers.get(row.name);
    if (ledger !== undefined) out.set(row.name, { ...ledger, generation: Number(row.generation) });
  }
  return out;
}

export async function writeMemberRoot(
  tx: Tx,
  write: MemberRootWrite,
  now: string,
): Promise<MemberRootWritten> {
  const uuid = memberProviderUuid(write.member);
  const [exists] = await tx.rows("SELECT 1 FROM members WHERE name = $1", [write.member]);
  requireMemberRow(write.member, exists);
  const inserted = await tx.run(
    `INSERT INTO providers (uuid, name, parent_uuid, root_uuid, generation, inventories, traits, aggregates,
       created_at, updated_at)
     VALUES ($1, $2, NULL, $1, 0, '{}', '[]', '[]', $3, $3) ON CONFLICT (uuid) DO NOTHING`,
    [uuid, write.member, now],
  );
  if (inserted > 0) await appendChanges(tx, [{ kind: "catalog", table: "providers" }]);
  const row = await storedRow(tx, uuid, "FOR UPDATE");
  const member = requireMemberRow(write.member, (await memberLedgers(tx, [write.member])).get(write.member));
  const checked = checkMemberRootWrite(write, { member, row });
  await writeCheckedMemberRoot(write, member.generation, checked, writersOf(tx, now));
  return { member: (await loadMember(tx, write.member)) as MemberRecord, row: await storedRow(tx, uuid) };
}

/** This Store's writes of a member's root (member-writes.ts for the member, the row here). */
export function writersOf(tx: Tx, now: string): MemberRootWriters {
  return {
    inventories: (member, inventories, generation) => setInventories(tx, member, inventories, generation),
    traits: (member, traits, generation) => updateMember(tx, member, { traits }, generation),
    row: (member, generation, aggregates) => writeRootRow(tx, member, generation, aggregates, now),
  };
}
