export { type AppendChanges, CatalogRows, type CatalogSpec } from "./catalog-rows.js";
export { type CatalogRecords, catalogSpecs } from "./catalog-specs.js";
