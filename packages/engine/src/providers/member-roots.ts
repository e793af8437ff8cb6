/**
 * A Berth member is a root resource provider (one model, one ledger):
 * Placement shows every member as a root provider whose uuid is derived
 * from its name (`memberProviderUuid`), whose inventories and traits are
 * the member's and whose usage counts the member's instances and
 * reservations besides Placement's consumers. Until a Placement client
 * writes what a member has not (an allocation, a child, aggregates) the
 * root exists only in this view; the first such write stores its provider
 * row (rules/ledger/member-root.ts), which keeps only Placement's own
 * fields: its aggregates and its part of the generation. Placement's
 * generation of the root is the member's plus the row's (`rootGeneration`).
 */
import type { Inventory } from "@berth/resources";
import type { MemberState } from "../model/member-state.js";
import { rootGeneration } from "../rules/ledger/member-root.js";
import { isMemberRoot, memberProviderUuid } from "../rules/ledger/shared-ledger.js";
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

/** The member's root provider as Placement shows it: the member's inventories and traits, with its row's aggregates (if any). */
export function memberRoot(member: MemberRecord, row: ProviderRecord | undefined): ProviderRecord {
  const uuid = memberProviderUuid(member.name);
  return {
    uuid,
    name: member.name,
    parentUuid: null,
    rootUuid: uuid,
    generation: rootGeneration(member.generation, row?.generation),
    inventories: placementInventories(member.inventories),
    traits: [...member.traits].sort(),
    aggregates: row?.aggregates ?? [],
    createdAt: row?.createdAt ?? member.createdAt,
    updatedAt: row?.updatedAt ?? member.createdAt,
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
