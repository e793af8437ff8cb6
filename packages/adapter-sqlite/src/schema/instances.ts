import type { PlacementDecisionRecord } from "@berth/engine";
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { projects } from "./catalog.js";
import { members } from "./members.js";

export const instances = sqliteTable(
  "instances",
  {
    id: text("id").primaryKey(),
    // RESTRICT: a project cannot go while it holds instances.
    project: text("project")
      .notNull()
      .references(() => projects.name, { onDelete: "restrict" }),
    name: text("name").notNull(),
    type: text("type", { enum: ["container", "virtual-machine"] }).notNull(),
    // RESTRICT: a member cannot go while it hosts instances or reservations.
    memberId: integer("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "restrict" }),
    forthcoming: integer("forthcoming", { mode: "boolean" }).notNull(),
    // The member mirroring its storage (DRBD secondary), NULL for a
    // single-member instance. RESTRICT: that member cannot go while it does.
    secondaryId: integer("secondary_id").references(() => members.id, { onDelete: "restrict" }),
    architecture: text("architecture").notNull(),
    description: text("description").notNull().default(""),
    ephemeral: integer("ephemeral", { mode: "boolean" }).notNull().default(false),
    profiles: text("profiles", { mode: "json" }).$type<string[]>().notNull(),
    config: text("config", { mode: "json" }).$type<Record<string, string>>().notNull(),
    devices: text("devices", { mode: "json" }).$type<Record<string, Record<string, string>>>().notNull(),
    instanceType: text("instance_type"),
    flavor: text("flavor"),
    source: text("source", { mode: "json" }).$type<Record<string, unknown>>(),
    placementGroup: text("placement_group"),
    origin: text("origin"),
    createdAt: text("created_at").notNull(),
    limitsCpu: integer("limits_cpu").notNull().default(0),
    limitsMemoryBytes: integer("limits_memory_bytes").notNull().default(0),
    limitsDiskBytes: integer("limits_disk_bytes").notNull().default(0),
    // The decision record (engine `PlacementDecisionRecord`, JSON): why the
    // instance is on its member. NULL for rows written before migration 0010.
    decision: text("decision", { mode: "json" }).$type<PlacementDecisionRecord>(),
    revision: integer("revision").notNull(),
  },
  (t) => [
    // Unique names per project (LXD rule); also the getInstance(project, name)
    // lookup. Unnamed reservations (name "") are addressed by id and exempt;
    // queries repeat the `name <> ''` term so SQLite can use this index.
    uniqueIndex("instances_by_project_name").on(t.project, t.name).where(sql`${t.name} <> ''`),
    // listInstances({ project }) (API listings, scriptlet get_instances(project=...)).
    index("instances_by_project").on(t.project),
    // Covers the hydration counts per (member, project) and listInstances({ location }).
    index("instances_by_member").on(t.memberId, t.project, t.forthcoming, t.type),
    // listInstances({ secondary }) and the N+1 read of a member's mirrored memory.
    index("instances_by_secondary").on(t.secondaryId).where(sql`${t.secondaryId} IS NOT NULL`),
    // Placement group membership counts and the "group in use" check.
    index("instances_by_placement_group")
      .on(t.project, t.placementGroup, t.memberId)
      .where(sql`${t.placementGroup} IS NOT NULL`),
  ],
);

/**
 * Which profiles each instance uses: answers "is this profile in use?" without scanning JSON.
 * A WITHOUT ROWID table (migration 0006; drizzle cannot declare it, so a
 * drizzle-kit generated rebuild of this table must keep the clause): its rows
 * live in the primary key's B-tree, one B-tree insert fewer per link.
 */
export const instanceProfiles = sqliteTable(
  "instance_profiles",
  {
    instanceId: text("instance_id")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    project: text("project").notNull(),
    profile: text("profile").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.profile] }),
    index("instance_profiles_by_profile").on(t.project, t.profile),
  ],
);

/**
 * Each instance's allocations. A WITHOUT ROWID table (migration 0006; drizzle
 * cannot declare it, so a drizzle-kit generated rebuild of this table must
 * keep the clause): rows live in the primary key's B-tree instead of a rowid
 * table plus a separate key index, one B-tree insert fewer per row (a bulk
 * claim of 10,000 instances writes 20,000).
 */
export const allocations = sqliteTable(
  "allocations",
  {
    instanceId: text("instance_id")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    memberId: integer("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "restrict" }),
    resourceClass: text("resource_class").notNull(),
    ledger: text("ledger", { enum: ["used", "forthcoming"] }).notNull(),
    amount: integer("amount").notNull(),
    // The row's place in its instance's list: the table is WITHOUT ROWID
    // (migration 0006, see below), so rows come back in key order unless
    // read by this. Rows that predate it carry their old rowid, same order.
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.memberId, t.resourceClass, t.ledger] }),
    // "Does this member have allocations of this class?" (inventory removal) and check().
    index("allocations_by_member_class").on(t.memberId, t.resourceClass, t.ledger),
  ],
);

/**
 * Per-member usage per class per ledger: the sums of `allocations`, kept in
 * the same transaction as the allocations so capacity checks read one row
 * instead of summing instances.
 */
export const usage = sqliteTable(
  "usage",
  {
    memberId: integer("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    resourceClass: text("resource_class").notNull(),
    ledger: text("ledger", { enum: ["used", "forthcoming"] }).notNull(),
    amount: integer("amount").notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.resourceClass, t.ledger] })],
);

/** What LXD project limits count, per project, maintained with every claim. */
export const projectUsage = sqliteTable("project_usage", {
  project: text("project")
    .primaryKey()
    .references(() => projects.name, { onDelete: "cascade" }),
  instances: integer("instances").notNull().default(0),
  containers: integer("containers").notNull().default(0),
  virtualMachines: integer("virtual_machines").notNull().default(0),
  cpu: integer("cpu").notNull().default(0),
  memoryBytes: integer("memory_bytes").notNull().default(0),
  diskBytes: integer("disk_bytes").notNull().default(0),
});
