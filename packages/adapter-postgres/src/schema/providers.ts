import type { Inventory } from "@berth/resources";
import {
  type AnyPgColumn,
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from "drizzle-orm/pg-core";

/**
 * Placement resource providers (engine `ProviderRecord`). Inventories,
 * traits and aggregates are jsonb on the row: a provider's generation guards
 * them together, so they are always written together.
 */
export const providers = pgTable(
  "providers",
  {
    uuid: text("uuid").primaryKey(),
    name: text("name").notNull().unique(),
    // RESTRICT: a provider cannot go while it has children.
    parentUuid: text("parent_uuid").references((): AnyPgColumn => providers.uuid, {
      onDelete: "restrict",
    }),
    rootUuid: text("root_uuid").notNull(),
    generation: integer("generation").notNull(),
    inventories: jsonb("inventories").$type<Record<string, Inventory>>().notNull(),
    traits: jsonb("traits").$type<string[]>().notNull(),
    aggregates: jsonb("aggregates").$type<string[]>().notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("providers_by_parent").on(t.parentUuid)],
);

/** Custom traits (standard os-traits names are built in). */
export const traits = pgTable("traits", {
  name: text("name").primaryKey(),
  createdAt: text("created_at").notNull(),
});

/** Placement consumers (engine `ConsumerRecord`, without its rows). */
export const consumers = pgTable(
  "consumers",
  {
    uuid: text("uuid").primaryKey(),
    projectId: text("project_id").notNull(),
    userId: text("user_id").notNull(),
    consumerType: text("consumer_type"),
    generation: integer("generation").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("consumers_by_project_user").on(t.projectId, t.userId)],
);

/** A consumer's allocation rows; summed per provider and class for usage and capacity. */
export const consumerAllocations = pgTable(
  "consumer_allocations",
  {
    consumerUuid: text("consumer_uuid")
      .notNull()
      .references(() => consumers.uuid, { onDelete: "cascade" }),
    // RESTRICT: a provider with allocations cannot go.
    providerUuid: text("provider_uuid")
      .notNull()
      .references(() => providers.uuid, { onDelete: "restrict" }),
    resourceClass: text("resource_class").notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.consumerUuid, t.providerUuid, t.resourceClass] }),
    index("consumer_allocations_by_provider").on(t.providerUuid, t.resourceClass),
  ],
);
