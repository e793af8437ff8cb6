import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { projects } from "./shared.js";

/**
 * What LXD project limits count, per project, maintained with every claim.
 * One row per project: SQLite has one writer at a time, so there is nothing
 * to gain from PostgreSQL's shards.
 */
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
