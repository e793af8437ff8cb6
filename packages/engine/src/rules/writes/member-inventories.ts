/**
 * Replacing a member's inventories (`Store.setInventories`): at the
 * generation the caller read, custom classes that exist, and no class its
 * one ledger still holds (instances, reservations and its root provider's
 * Placement consumers) may go; shrinking below usage is allowed, and that
 * usage is grandfathered. The generation moves once; other engines re-read
 * the member.
 */
import { inventoryCapacity } from "@berth/resources";
import { conflict } from "../../base/errors.js";
import type { ChangeEntry } from "../../store/change-feed.js";
import type { InventoryRecord, MemberRecord } from "../../store/records.js";
import { consumedOf } from "../claims/capacity.js";
import type { ProviderRows } from "../claims/rows.js";
import { inventoryInUse } from "../ledger/member-root.js";
import { memberEntry } from "./member-entries.js";
import { checkMemberGeneration } from "./member-generation.js";
import { requireCustomClasses } from "./member-references.js";

/** What a Store reads, in its transaction, before it replaces a member's inventories. */
export interface MemberInventoriesReads {
  /** The stored member (not_found checked by the Store's read: `requireMemberRow`). */
  member: Pick<MemberRecord, "generation" | "joinOrder">;
  /** Which custom classes of the new inventories exist (`customClassesOf`). */
  customClasses: ReadonlySet<string>;
  /** The member's one ledger (engine `sharedLedgerRows`). */
  ledger: ProviderRows;
}

/** What the Store writes: the member at `generation`, and `entry`. */
export interface CheckedMemberInventories {
  /** The member's generation after the write. */
  generation: number;
  /** The feed entry to append. */
  entry: ChangeEntry;
}

/**
 * Judges a replacement of a member's inventories: the generation quoted, custom classes existing,
 * no class dropped while allocations hold it; answers the next generation and the feed entry.
 */
export function checkMemberInventories(
  name: string,
  inventories: Readonly<Record<string, InventoryRecord>>,
  expectedGeneration: number,
  reads: MemberInventoriesReads,
): CheckedMemberInventories {
  checkMemberGeneration(name, expectedGeneration, reads.member.generation);
  requireCustomClasses(Object.keys(inventories), reads.customClasses);
  const dropped = inventoryInUse(reads.ledger, inventories);
  const [first] = dropped;
  if (first !== undefined)
    throw conflict(
      `Cannot remove inventory of ${first} from cluster member "${name}": ${consumedOf(reads.ledger, first)} allocated`,
      { reason: "inventory_in_use", classes: dropped },
    );
  return {
    generation: reads.member.generation + 1,
    entry: memberEntry(name, reads.member.joinOrder, "updated"),
  };
}

/**
 * The usage an inventory grandfathers: what its instances hold beyond its
 * capacity when it was set (0 when they fit), so the consistency check
 * (rules/invariants/invariants.ts) does not report it as an overcommit.
 */
export function grandfatheredUsage(inventory: InventoryRecord, used: number): number {
  return used > inventoryCapacity(inventory) ? used : 0;
}
