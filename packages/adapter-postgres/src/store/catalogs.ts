import { type CatalogRecords, type CatalogSpec, catalogSpecs } from "@berth/sql-core";
import type { Pools } from "../connection/pools.js";
import { PostgresCatalogTable } from "./catalog-table.js";

export type Catalogs = { [K in keyof CatalogRecords]: PostgresCatalogTable<CatalogRecords[K]> };

/** Every catalog table of the Store port (rows and rules: @berth/sql-core's `catalogSpecs`); `afterWrite` wakes the other servers. */
export function createCatalogs(pools: Pools, afterWrite: () => void = () => undefined): Catalogs {
  const entries = Object.entries(catalogSpecs).map(([name, spec]) => [
    name,
    new PostgresCatalogTable(pools, spec as CatalogSpec<object>, afterWrite),
  ]);
  return Object.fromEntries(entries) as Catalogs;
}
