import type { PlacementDecisionRecord } from "@berth/engine";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { projects } from "./catalog.js";
import { members } from "./members.js";

/** Listing order of instances (see `instances.seq`). */
export const instancesSeq = pgSequence("instances_seq");

export const instances = pgTable(
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
    memberId: bigint("member_id", { mode: "number" })
      .notNull()
      .references(() => members.id, { onDelete: "restrict" }),
    forthcoming: boolean("forthcoming").notNull(),
    // The member mirroring its storage (DRBD secondary), NULL for a
    // single-member instance. RESTRICT: that member cannot go while it does.
    secondaryId: bigint("secondary_id", { mode: "number" }).references(() => members.id, {
      onDelete: "restrict",
    }),
    architecture: text("architecture").notNull(),
    description: text("description").notNull().default(""),
    ephemeral: boolean("ephemeral").notNull().default(false),
    profiles: jsonb("profiles").$type<string[]>().notNull(),
    config: jsonb("config").$type<Record<string, string>>().notNull(),
    devices: jsonb("devices").$type<Record<string, Record<string, string>>>().notNull(),
    instanceType: text("instance_type"),
    flavor: text("flavor"),
    source: jsonb("source").$type<Record<string, unknown>>(),
    placementGroup: text("placement_group"),
    origin: text("origin"),
    createdAt: text("created_at").notNull(),
    limitsCpu: bigint("limits_cpu", { mode: "number" }).notNull().default(0),
    limitsMemoryBytes: bigint("limits_memory_bytes", { mode: "number" }).notNull().default(0),
    limitsDiskBytes: bigint("limits_disk_bytes", { mode: "number" }).notNull().default(0),
    // The decision record (engine `PlacementDecisionRecord`): why the
    // instance is on its member. NULL for rows written before migration 0001.
    decision: jsonb("decision").$type<PlacementDecisionRecord>(),
    revision: integer("revision").notNull(),
    /**
     * Listing order: claim order, as SQLite's rowid gives it. Drawn from a
     * sequence at insert, so instances of one claim keep their order.
     */
    seq: bigint("seq", { mode: "number" }).notNull().default(sql`nextval('instances_seq')`),
  },
  (t) => [
    // Unique names per project (LXD rule); unnamed reservations (name '') are exempt.
    uniqueIndex("instances_by_project_name").on(t.project, t.name).where(sql`${t.name} <> ''`),
    index("instances_by_project").on(t.project, t.seq),
    // The hydration counts per (member, project) and listInstances({ location }).
    index("instances_by_member").on(t.memberId, t.project, t.forthcoming, t.type),
    // listInstances({ secondary }) and the N+1 read of a member's mirrored memory.
    index("instances_by_secondary").on(t.secondaryId).where(sql`${t.secondaryId} IS NOT NULL`),
    index("instances_by_placement_group")
      .on(t.project, t.placementGroup, t.memberId)
      .where(sql`${t.placementGroup} IS NOT NULL`),
    index("instances_by_seq").on(t.seq),
  ],
);

/** Which profiles each instance uses: answers "is this profile in use?" without scanning JSON. */
export const instanceProfiles = pgTable(
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

/** Each instance's allocations, in the order of its list (`position`). */
export const allocations = pgTable(
  "allocations",
  {
    instanceId: text("instance_id")
      .notNull()
      .references(() => instances.id, { onDelete: "cascade" }),
    memberId: bigint("member_id", { mode: "number" })
      .notNull()
      .references(() => members.id, { onDelete: "restrict" }),
    resourceClass: text("resource_class").notNull(),
    ledger: text("ledger", { enum: ["used", "forthcoming"] }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.memberId, t.resourceClass, t.ledger] }),
    index("allocations_by_member_class").on(t.memberId, t.resourceClass, t.ledger),
  ],
);

/**
 * Per-member usage per class per ledger: the sums of `allocations`, kept in
 * the same transaction, so a capacity check reads one row per class.
 */
export const usage = pgTable(
  "usage",
  {
    memberId: bigint("member_id", { mode: "number" })
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    resourceClass: text("resource_class").notNull(),
    ledger: text("ledger", { enum: ["used", "forthcoming"] }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.resourceClass, t.ledger] })],
);

/**
 * What LXD project limits count, per project, spread over a few shards:
 * every claim adds to its project's counters, and one row per project would
 * make every claim of a busy project (say `default`) wait for the previous
 * one's commit. A claim adds to one shard (picked at random); the counters
 * are the sum of the shards, and a claim that checks a limit locks them all.
 */
export const projectUsage = pgTable(
  "project_usage",
  {
    project: text("project")
      .notNull()
      .references(() => projects.name, { onDelete: "cascade" }),
    shard: smallint("shard").notNull(),
    instances: bigint("instances", { mode: "number" }).notNull().default(0),
    containers: bigint("containers", { mode: "number" }).notNull().default(0),
    virtualMachines: bigint("virtual_machines", { mode: "number" }).notNull().default(0),
    cpu: bigint("cpu", { mode: "number" }).notNull().default(0),
    memoryBytes: bigint("memory_bytes", { mode: "number" }).notNull().default(0),
    diskBytes: bigint("disk_bytes", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.project, t.shard] })],
);
