import { type CatalogRecords, type CatalogSpec, catalogSpecs } from "@berth/sql-core";
import type { Connection } from "../connection/open-connection.js";
import { SqliteCatalogTable } from "./catalog-table.js";

export type Catalogs = { [K in keyof CatalogRecords]: SqliteCatalogTable<CatalogRecords[K]> };

/** Every catalog table of the Store port (rows and rules: @berth/sql-core's `catalogSpecs`). */
export function createCatalogs(connection: Connection): Catalogs {
  const entries = Object.entries(catalogSpecs).map(([name, spec]) => [
    name,
    new SqliteCatalogTable(connection, spec as CatalogSpec<object>),
  ]);
  return Object.fromEntries(entries) as Catalogs;
}
