import { customTraitsOf } from "@berth/engine";
import type { SqlRunner } from "../runner/runner.js";
import { storedNames } from "./stored-names.js";

/**
 * Which custom traits of `traits` are stored (standard traits are built
 * in), for the engine's `requireCustomTraits` in a provider write's
 * transaction. PostgreSQL share-locks the rows found: a trait's delete
 * locks its row (FOR UPDATE, CatalogRows.delete) before it looks for
 * holders, so it either waits for this write and then sees the provider
 * holding the trait, or goes first and this read no longer finds the row.
 * SQLite's one writer runs the two one after the other.
 */
export function foundTraits(db: SqlRunner, traits: readonly string[]): Promise<Set<string>> {
  return storedNames(db, "traits", customTraitsOf(traits));
}
