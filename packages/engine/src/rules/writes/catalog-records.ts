/**
 * The rules every catalog table (groups, projects, profiles, flavors,
 * images, placement groups, custom resource classes, Placement providers,
 * traits) shares: how its records are named in messages, that a create
 * takes a free key, an update or delete names a stored record (an update
 * with `expected` only over that version), a delete waits until nothing
 * uses the record, and every committed write appends a feed entry naming
 * the table (other engines re-read it whole).
 */
import { conflict, notFound } from "../../base/errors.js";
import type { CatalogTableName, ChangeEntry } from "../../store/change-feed.js";
import type { RecordKey } from "../../store/port.js";
import { recordChanged, sameVersion } from "../../store/record-version.js";

/** How messages name each table's records. */
export const CATALOG_LABELS: Readonly<Record<CatalogTableName, string>> = {
  groups: "Cluster group",
  projects: "Project",
  profiles: "Profile",
  flavors: "Flavor",
  images: "Image",
  placementGroups: "Placement group",
  resourceClasses: "Resource class",
  providers: "Resource provider",
  traits: "Trait",
};

/** A record's key as messages show it: `project/name` for project-scoped tables. */
export function catalogKeyString(key: RecordKey): string {
  return key.project === undefined ? key.name : `${key.project}/${key.name}`;
}

/** The entry a committed write of `table` appends. */
export function catalogEntry(table: CatalogTableName): ChangeEntry {
  return { kind: "catalog", table };
}

/** conflict when a record with the key exists. */
export function checkCatalogCreate(table: CatalogTableName, key: RecordKey, exists: boolean): void {
  if (exists) throw conflict(`${CATALOG_LABELS[table]} "${catalogKeyString(key)}" already exists`);
}

/** not_found when the record is absent. */
export function requireCatalogRecord<T>(table: CatalogTableName, key: RecordKey, stored: T | undefined): T {
  if (stored === undefined) throw notFound(`${CATALOG_LABELS[table]} "${catalogKeyString(key)}" not found`);
  return stored;
}

/** not_found when absent; with `expected`, `recordChanged` unless the stored row is that version. */
export function checkCatalogUpdate<T extends object>(
  table: CatalogTableName,
  key: RecordKey,
  stored: T | undefined,
  expected: T | undefined,
): void {
  const row = requireCatalogRecord(table, key, stored);
  if (expected !== undefined && !sameVersion(row, expected))
    throw recordChanged(CATALOG_LABELS[table], catalogKeyString(key));
}

/** conflict when something still uses the record (`inUse`: why, from the table's in-use rule). */
export function checkCatalogDelete(table: CatalogTableName, key: RecordKey, inUse: string | undefined): void {
  if (inUse !== undefined)
    throw conflict(`${CATALOG_LABELS[table]} "${catalogKeyString(key)}" is in use: ${inUse}`);
}
