import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Cluster members. The integer id is the join order (AUTOINCREMENT never
 * reuses an id, so a re-joined member goes last) and the key every
 * per-member row refers to, so renames never touch instance rows.
 */
export const members = sqliteTable("members", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  url: text("url").notNull(),
  architecture: text("architecture").notNull(),
  description: text("description").notNull().default(""),
  failureDomain: text("failure_domain").notNull().default("default"),
  roles: text("roles", { mode: "json" }).$type<string[]>().notNull(),
  config: text("config", { mode: "json" }).$type<Record<string, string>>().notNull(),
  evacuated: integer("evacuated", { mode: "boolean" }).notNull().default(false),
  lastHeartbeat: text("last_heartbeat"),
  state: text("state", { mode: "json" }).$type<Record<string, unknown>>(),
  resources: text("resources", { mode: "json" }).$type<Record<string, unknown>>(),
  /** Placement's resource provider generation: bumped on inventory/trait edits. */
  generation: integer("generation").notNull().default(0),
  createdAt: text("created_at").notNull(),
});

export const groups = sqliteTable("groups", {
  name: text("name").primaryKey(),
  description: text("description").notNull().default(""),
});

export const memberGroups = sqliteTable(
  "member_groups",
  {
    memberId: integer("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    // RESTRICT: a group cannot go while a member is in it.
    group: text("group_name")
      .notNull()
      .references(() => groups.name, { onDelete: "restrict", onUpdate: "cascade" }),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.group] }), index("member_groups_by_group").on(t.group)],
);

export const memberTraits = sqliteTable(
  "member_traits",
  {
    memberId: integer("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    trait: text("trait").notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.trait] })],
);

/** Custom resource classes (standard ones are built into @berth/resources). */
export const resourceClasses = sqliteTable("resource_classes", {
  name: text("name").primaryKey(),
});

export const inventories = sqliteTable(
  "inventories",
  {
    memberId: integer("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    resourceClass: text("resource_class").notNull(),
    total: integer("total").notNull(),
    reserved: integer("reserved").notNull().default(0),
    minUnit: integer("min_unit").notNull().default(1),
    maxUnit: integer("max_unit").notNull().default(2147483647),
    stepSize: integer("step_size").notNull().default(1),
    allocationRatio: real("allocation_ratio").notNull().default(1),
    source: text("source", { enum: ["explicit", "derived"] }).notNull(),
    /**
     * Usage (both ledgers) this inventory was set below, or 0. Shrinking an
     * inventory under its usage is allowed and claims never grow past
     * capacity, so usage may exceed capacity only up to this mark: check()
     * tells a legitimate shrink from an overcommit with it.
     */
    grandfatheredUsage: integer("grandfathered_usage").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.resourceClass] }),
    // Deleting a custom class asks "does any inventory use it?".
    index("inventories_by_class").on(t.resourceClass),
  ],
);
