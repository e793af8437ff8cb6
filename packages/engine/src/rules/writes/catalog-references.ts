/**
 * What a catalog record names must exist when it is written: the project
 * of a project-scoped record (profiles, placement groups); for a Placement
 * provider, its parent, a name no other provider has, an inventory of
 * every class its consumers hold, and every custom trait it has.
 */
import { conflict, notFound } from "../../base/errors.js";
import type { ProviderRecord } from "../../store/records.js";
import { requireCustomTraits } from "./provider-traits.js";

/** not_found unless the record's project exists. */
export function requireProject(project: string, exists: boolean): void {
  if (!exists) throw notFound(`Project "${project}" not found`);
}

/** What a Store reads, in its transaction, before it writes a provider. */
export interface ProviderWriteReads {
  /** The classes its consumers hold allocations of. */
  heldClasses: readonly string[];
  /** Another provider (another uuid) has the name. */
  nameTaken: boolean;
  /** The parent exists (ignored for a root). */
  parentExists: boolean;
  /** Which of its custom traits (`customTraitsOf`) are stored, read so a concurrent delete cannot take them. */
  foundTraits: ReadonlySet<string>;
}

/**
 * Judges a Placement provider write against what the Store read: no class in use dropped, the name
 * free, the parent there, its custom traits stored; throws the first refusal.
 */
export function checkProviderWrite(provider: ProviderRecord, reads: ProviderWriteReads): void {
  for (const resourceClass of reads.heldClasses) {
    if (provider.inventories[resourceClass] === undefined)
      throw conflict(`Inventory of ${resourceClass} on provider "${provider.uuid}" is in use`, {
        reason: "inventory_in_use",
        resourceClass,
      });
  }
  if (reads.nameTaken)
    throw conflict(`Resource provider name "${provider.name}" is taken`, { reason: "name_taken" });
  if (provider.parentUuid !== null && !reads.parentExists)
    throw notFound(`Resource provider "${provider.parentUuid}" not found`);
  requireCustomTraits(provider.traits, reads.foundTraits);
}
