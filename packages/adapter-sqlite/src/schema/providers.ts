import type { Inventory } from "@berth/resources";
import { type AnySQLiteColumn, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Placement resource providers (engine `ProviderRecord`). Inventories,
 * traits and aggregates are JSON on the row: a provider's generation guards
 * them together, so they are always written together.
 */
export const providers = sqliteTable(
  "providers",
  {
    uuid: text("uuid").primaryKey(),
    name: text("name").notNull().unique(),
    // RESTRICT: a provider cannot go while it has children.
    parentUuid: text("parent_uuid").references((): AnySQLiteColumn => providers.uuid, {
      onDelete: "restrict",
    }),
    rootUuid: text("root_uuid").notNull(),
    generation: integer("generation").notNull(),
    inventories: text("inventories", { mode: "json" }).$type<Record<string, Inventory>>().notNull(),
    traits: text("traits", { mode: "json" }).$type<string[]>().notNull(),
    aggregates: text("aggregates", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("providers_by_parent").on(t.parentUuid)],
);

/** Custom traits (standard os-traits names are built in). */
export const traits = sqliteTable("traits", {
  name: text("name").primaryKey(),
  createdAt: text("created_at").notNull(),
});
