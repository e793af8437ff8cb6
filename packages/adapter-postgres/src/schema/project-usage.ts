import { bigint, pgSequence, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { projects } from "./shared.js";

/** Listing order of instances (the shared description's `instances.seq`). */
export const instancesSeq = pgSequence("instances_seq");

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
