/**
 * A Berth member is a root resource provider (one model, one ledger):
 * Placement shows every member as a root provider whose uuid is derived
 * from its name (`memberProviderUuid`), whose inventories are the member's
 * and whose usage counts the member's instances and reservations besides
 * Placement's consumers. Until a Placement client writes to it (an
 * allocation, a child, traits, aggregates) the root exists only in this
 * view; the first such write stores its provider row (`rootRow`), which
 * keeps Placement's own fields (generation, traits, aggregates). The
 * member's inventories stay the one home of its capacity: every claim reads
 * them (claim-rules/shared-ledger.ts), the row's copy only answers the
 * store's in-use checks.
 */
import type { Inventory } from "@berth/resources";
import { isMemberRoot, memberProviderUuid } from "../claim-rules/shared-ledger.js";
import type { MemberState } from "../model/member-state.js";
import type { InventoryRecord, MemberRecord, ProviderRecord } from "../store/records.js";

/** The member's inventories as Placement shows them (without where they came from). */
export function placementInventories(
  inventories: Readonly<Record<string, InventoryRecord>>,
): Record<string, Inventory> {
  const out: Record<string, Inventory> = {};
  for (const [resourceClass, { source: _source, ...inventory }] of Object.entries(inventories))
    out[resourceClass] = inventory;
  return out;
}

/** Placement's inventories as the member keeps them: set by a client, so explicit (they win over derived ones). */
export function explicitInventories(
  inventories: Readonly<Record<string, Inventory>>,
): Record<string, InventoryRecord> {
  const out: Record<string, InventoryRecord> = {};
  for (const [resourceClass, inventory] of Object.entries(inventories))
    out[resourceClass] = { ...inventory, source: "explicit" };
  return out;
}

/** The member's root provider as Placement shows it: its stored row (if any) with the member's inventories. */
export function memberRoot(member: MemberRecord, row: ProviderRecord | undefined): ProviderRecord {
  const inventories = placementInventories(member.inventories);
  if (row !== undefined) return { ...row, inventories };
  const uuid = memberProviderUuid(member.name);
  return {
    uuid,
    name: member.name,
    parentUuid: null,
    rootUuid: uuid,
    generation: member.generation,
    inventories,
    traits: [...member.traits].sort(),
    aggregates: [],
    createdAt: member.createdAt,
    updatedAt: member.createdAt,
  };
}

/** The member a provider is the root of, if it is one. */
export function memberOfRoot(
  provider: Pick<ProviderRecord, "uuid" | "name" | "parentUuid">,
  member: (name: string) => MemberState | undefined,
): MemberState | undefined {
  if (provider.parentUuid !== null || !isMemberRoot(provider.uuid, provider.name)) return undefined;
  return member(provider.name);
}

/** What a member's classes hold now: its instances and reservations, and the consumers of its root. */
export function memberRootUsage(member: MemberState): Record<string, number> {
  const out: Record<string, number> = {};
  for (const ledger of [member.used, member.forthcoming])
    for (const [resourceClass, amount] of ledger)
      if (amount !== 0) out[resourceClass] = (out[resourceClass] ?? 0) + amount;
  return out;
}
