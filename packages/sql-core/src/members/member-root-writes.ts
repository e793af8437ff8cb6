/**
 * A member's root provider written through Placement (engine
 * claim-rules/member-root.ts), inside the caller's write transaction. Where
 * the dialect has row locks they are taken as a consumer claim takes them,
 * the root's row first, then the member's row: a write of the root first
 * stores its row if it has none (generation 0, nothing else: Placement's
 * generation of the root does not move), so two writers of one root always
 * meet on that row (SQLite's one writer needs no such meeting point, and
 * stores the row only when the write does). Then the member is read with
 * its one ledger (instances, reservations, the root's consumers) and its
 * generation, and a traits write's custom traits (share-locked, so a
 * concurrent delete of one waits or is seen); the engine's rules judge
 * them; inventories and traits are written on the member (member-writes.ts:
 * its generation moves, a member feed entry), aggregates and Placement's
 * part of the generation on the row. The reshaper reads and writes member roots through the same pieces.
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
  requireCustomTraits,
  requireMemberRow,
  writeCheckedMemberRoot,
} from "@berth/engine";
import { CatalogRows } from "../catalogs/catalog-rows.js";
import { catalogSpecs } from "../catalogs/catalog-specs.js";
import { foundTraits } from "../catalogs/found-traits.js";
import type { ReshapeSide } from "../consumers/consumer-writes.js";
import { loadMember } from "../rows/members.js";
import { readMemberProviders } from "../rows/provider-tuples.js";
import { inList, listParam } from "../runner/lists.js";
import { first, type SqlRunner } from "../runner/runner.js";
import type { MemberSide } from "./member-side.js";
import { setInventories, updateMember } from "./member-writes.js";

const providerRows = new CatalogRows<ProviderRecord>(catalogSpecs.providers);

/**
 * Writes a member root's row at `generation` (aggregates: when given),
 * creating it when missing. It keeps no inventories or traits of its own.
 */
async function writeRootRow(
  db: SqlRunner,
  side: MemberSide,
  member: string,
  generation: number,
  aggregates: readonly string[] | undefined,
  now: string,
): Promise<void> {
  const uuid = memberProviderUuid(member);
  const aggregatesParam = aggregates === undefined ? null : JSON.stringify(aggregates);
  const given = db.dialect === "pg" ? "CAST(? AS jsonb)" : "?";
  await db.run(
    `INSERT INTO providers (uuid, name, parent_uuid, root_uuid, generation, inventories, traits, aggregates,
       created_at, updated_at)
     VALUES (?, ?, NULL, ?, ?, '{}', '[]', coalesce(${given}, '[]'), ?, ?)
     ON CONFLICT (uuid) DO UPDATE SET generation = ?, inventories = '{}', traits = '[]',
       aggregates = coalesce(${given}, providers.aggregates), updated_at = ?`,
    [uuid, member, uuid, generation, aggregatesParam, now, now, generation, aggregatesParam, now],
  );
  await side.append([{ kind: "catalog", table: "providers" }]);
}

/** The named members' one ledgers (instances, reservations, their roots' consumers) and generations, locked as claims lock them. */
export async function memberLedgers(
  db: SqlRunner,
  side: MemberSide,
  names: readonly string[],
): Promise<Map<string, MemberRootRows["member"]>> {
  const out = new Map<string, MemberRootRows["member"]>();
  if (names.length === 0) return out;
  const ledgers = (await readMemberProviders(db, await side.lockMembers(names))).rows;
  const rows = await db.all<{ name: string; generation: number }>(
    `SELECT name, generation FROM members WHERE name IN ${inList(db)}`,
    [listParam(names)],
  );
  for (const row of rows) {
    const ledger = ledgers.get(row.name);
    if (ledger !== undefined) out.set(row.name, { ...ledger, generation: Number(row.generation) });
  }
  return out;
}

export async function writeMemberRoot(
  db: SqlRunner,
  side: MemberSide,
  write: MemberRootWrite,
  now: string,
): Promise<MemberRootWritten> {
  const uuid = memberProviderUuid(write.member);
  if (db.dialect === "pg") {
    requireMemberRow(
      write.member,
      await first(db, "SELECT 1 AS one FROM members WHERE name = ?", [write.member]),
    );
    const inserted = await db.run(
      `INSERT INTO providers (uuid, name, parent_uuid, root_uuid, generation, inventories, traits, aggregates,
         created_at, updated_at)
       VALUES (?, ?, NULL, ?, 0, '{}', '[]', '[]', ?, ?) ON CONFLICT (uuid) DO NOTHING`,
      [uuid, write.member, uuid, now, now],
    );
    if (inserted > 0) await side.append([{ kind: "catalog", table: "providers" }]);
  }
  const row = await providerRows.find(db, { name: uuid }, true);
  const member = requireMemberRow(
    write.member,
    (await memberLedgers(db, side, [write.member])).get(write.member),
  );
  const { change } = write;
  if (change.kind === "traits") requireCustomTraits(change.traits, await foundTraits(db, change.traits));
  const checked = checkMemberRootWrite(write, { member, row });
  await writeCheckedMemberRoot(write, member.generation, checked, memberRootWriters(db, side, now));
  return {
    member: (await loadMember(db, write.member)) as MemberRecord,
    row: await providerRows.find(db, { name: uuid }),
  };
}

/** The writes of a member's root (member-writes.ts for the member, the row here). */
export function memberRootWriters(db: SqlRunner, side: MemberSide, now: string): MemberRootWriters {
  return {
    inventories: (member, inventories, generation) =>
      setInventories(db, side, member, inventories, generation),
    traits: (member, traits, generation) => updateMember(db, side, member, { traits }, generation),
    row: (member, generation, aggregates) => writeRootRow(db, side, member, generation, aggregates, now),
  };
}

/** A consumer claim's and a reshape's adapter side, made of the member side. */
export function reshapeSideOf(db: SqlRunner, side: MemberSide): ReshapeSide {
  return {
    memberRows: async (names) => (await readMemberProviders(db, await side.lockMembers(names))).rows,
    append: (entries) => side.append(entries),
    memberLedgers: (names) => memberLedgers(db, side, names),
    rootWriters: (now) => memberRootWriters(db, side, now),
  };
}
