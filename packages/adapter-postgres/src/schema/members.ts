import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
} from "drizzle-orm/pg-core";

/**
 * Cluster members. The id is the join order (a sequence never hands out a
 * number twice, so a re-joined member goes last) and the key every
 * per-member row refers to, so renames never touch instance rows. A claim
 * locks the rows of the members it touches (`FOR NO KEY UPDATE`, in name
 * order), which serializes claims per member across servers.
 */
export const members = pgTable("members", {
  id: bigserial("id", { mode: "number" }).primaryKey(),
  name: text("name").notNull().unique(),
  url: text("url").notNull(),
  architecture: text("architecture").notNull(),
  description: text("description").notNull().default(""),
  failureDomain: text("failure_domain").notNull().default("default"),
  roles: jsonb("roles").$type<string[]>().notNull(),
  config: jsonb("config").$type<Record<string, string>>().notNull(),
  evacuated: boolean("evacuated").notNull().default(false),
  lastHeartbeat: text("last_heartbeat"),
  state: jsonb("state").$type<Record<string, unknown>>(),
  resources: jsonb("resources").$type<Record<string, unknown>>(),
  /** Placement's resource provider generation: bumped on inventory/trait edits. */
  generation: integer("generation").notNull().default(0),
  createdAt: text("created_at").notNull(),
});

export const groups = pgTable("groups", {
  name: text("name").primaryKey(),
  description: text("description").notNull().default(""),
});

export const memberGroups = pgTable(
  "member_groups",
  {
    memberId: bigint("member_id", { mode: "number" })
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

export const memberTraits = pgTable(
  "member_traits",
  {
    memberId: bigint("member_id", { mode: "number" })
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    trait: text("trait").notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.trait] })],
);

/** Custom resource classes (standard ones are built into @berth/resources). */
export const resourceClasses = pgTable("resource_classes", {
  name: text("name").primaryKey(),
});

export const inventories = pgTable(
  "inventories",
  {
    memberId: bigint("member_id", { mode: "number" })
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    resourceClass: text("resource_class").notNull(),
    total: bigint("total", { mode: "number" }).notNull(),
    reserved: bigint("reserved", { mode: "number" }).notNull().default(0),
    minUnit: bigint("min_unit", { mode: "number" }).notNull().default(1),
    maxUnit: bigint("max_unit", { mode: "number" }).notNull().default(2147483647),
    stepSize: bigint("step_size", { mode: "number" }).notNull().default(1),
    allocationRatio: doublePrecision("allocation_ratio").notNull().default(1),
    source: text("source", { enum: ["explicit", "derived"] }).notNull(),
    /** Usage (both ledgers) this inventory was set below, or 0 (see check()). */
    grandfatheredUsage: bigint("grandfathered_usage", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.memberId, t.resourceClass] }),
    // Deleting a custom class asks "does any inventory use it?".
    index("inventories_by_class").on(t.resourceClass),
  ],
);
