/**
 * A consumer claim and Placement's reshaper, the same in both dialects:
 * inside the caller's one write transaction they read the written consumers
 * and the providers the writes name (consumer-rows.ts), call the engine's
 * rules (`checkConsumerClaim`, `checkReshape`) and write what those return,
 * so concurrent writers can never overcommit a provider. What differs is
 * the adapter's (`ConsumerWriteSide`): how it reads and locks members'
 * rows, writes member roots and appends change-feed entries.
 */
import {
  type ChangeEntry,
  type ConsumerRecord,
  type ConsumerWrite,
  checkConsumerClaim,
  checkReshape,
  consumerClaimEntry,
  consumerProvidersToRead,
  type MemberRootWriters,
  memberRootReshapes,
  type ProviderRows,
  type ReshapeWrite,
  reshapeMemberRoots,
  reshapeProvidersToRead,
  withMemberRootRows,
  writeMemberRootReshapes,
} from "@berth/engine";
import type { SqlRunner } from "../runner/runner.js";
import { jsonParam } from "../runner/values.js";
import {
  bumpGenerations,
  claimedProviders,
  currentConsumers,
  instanceIdsAmong,
  replaceConsumers,
} from "./consumer-rows.js";

export interface ConsumerWriteSide {
  /** Members' rows as their root providers (read, and locked in the adapter's order). */
  memberRows(members: string[]): Promise<ReadonlyMap<string, ProviderRows>>;
  /** Appends change-feed entries in the same transaction. */
  append(entries: ChangeEntry[]): Promise<void>;
}

export interface ReshapeSide extends ConsumerWriteSide {
  /** Members' ledgers as a reshape reads a member root (engine `reshapeMemberRoots`). */
  memberLedgers: Parameters<typeof reshapeMemberRoots>[4];
  /** Writers of a member root's inventories and row. */
  rootWriters(now: string): Pick<MemberRootWriters, "inventories" | "row">;
}

/**
 * Writes the checked consumers and appends the claim's change-feed entry
 * (engine `consumerClaimEntry`): its usage on member roots is keyed by the
 * member, so other servers' models follow.
 */
async function writeConsumers(
  db: SqlRunner,
  side: ConsumerWriteSide,
  current: ReadonlyMap<string, ConsumerRecord>,
  stored: readonly ConsumerRecord[],
  entry: ChangeEntry,
): Promise<void> {
  await replaceConsumers(db, [...current.keys()], stored);
  await side.append([entry]);
}

export async function claimConsumers(
  db: SqlRunner,
  writes: readonly ConsumerWrite[],
  side: ConsumerWriteSide,
): Promise<ConsumerRecord[]> {
  const uuids = writes.map((w) => w.record.uuid);
  const current = await currentConsumers(db, uuids);
  const { rows, memberRoots } = await claimedProviders(
    db,
    consumerProvidersToRead(writes, current),
    (names) => side.memberRows(names),
  );
  const checked = checkConsumerClaim(
    writes,
    { consumers: current, providers: rows, instances: await instanceIdsAmong(db, uuids) },
    new Date().toISOString(),
  );
  const bumped = await bumpGenerations(db, checked.providersChanged);
  const entry = consumerClaimEntry(checked, (uuid) => memberRoots.get(uuid), bumped);
  await writeConsumers(db, side, current, checked.stored, entry);
  return checked.stored;
}

/**
 * A reshape, all or nothing: the providers' inventories and generations (a
 * member root's inventories on the member, its row created when missing)
 * and the consumers' rows. It appends the providers' change-feed entry
 * (other servers read the rows again) and a consumer claim's entry (their
 * models count the usage); the root writers append the members'.
 */
export async function reshapeConsumers(
  db: SqlRunner,
  change: ReshapeWrite,
  side: ReshapeSide,
): Promise<ConsumerRecord[]> {
  const uuids = change.writes.map((w) => w.record.uuid);
  const current = await currentConsumers(db, uuids);
  const named = reshapeProvidersToRead(change, current);
  const { rows, memberRoots } = await claimedProviders(db, named, (names) => side.memberRows(names));
  const roots = await reshapeMemberRoots(change, named, memberRoots, rows, side.memberLedgers);
  withMemberRootRows(rows, roots);
  const now = new Date().toISOString();
  const instances = await instanceIdsAmong(db, uuids);
  const checked = checkReshape(change, { consumers: current, providers: rows, instances }, now);
  const split = memberRootReshapes(change, checked, roots);
  for (const written of split.providers)
    await db.run("UPDATE providers SET inventories = ?, generation = ?, updated_at = ? WHERE uuid = ?", [
      jsonParam(written.inventories),
      written.generation,
      now,
      written.uuid,
    ]);
  if (split.providers.length > 0) await side.append([{ kind: "catalog", table: "providers" }]);
  await writeMemberRootReshapes(split.roots, side.rootWriters(now));
  for (const [uuid, root] of roots) memberRoots.set(uuid, root.member);
  const bumped = [
    ...split.providers.map((p) => [p.uuid, p.generation] as const),
    ...split.roots.map((r) => [r.uuid, r.rowGeneration] as const),
  ];
  const entry = consumerClaimEntry(checked.consumers, (uuid) => memberRoots.get(uuid), bumped);
  await writeConsumers(db, side, current, checked.consumers.stored, entry);
  return checked.consumers.stored;
}
