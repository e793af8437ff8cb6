import { PLACEMENT_POLICIES, PLACEMENT_RIGORS } from "@berth/api-types";
import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const projects = sqliteTable("projects", {
  name: text("name").primaryKey(),
  description: text("description").notNull().default(""),
  config: text("config", { mode: "json" }).$type<Record<string, string>>().notNull(),
});

export const profiles = sqliteTable(
  "profiles",
  {
    // RESTRICT: a project cannot go while it still has profiles.
    project: text("project")
      .notNull()
      .references(() => projects.name, { onDelete: "restrict" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    config: text("config", { mode: "json" }).$type<Record<string, string>>().notNull(),
    devices: text("devices", { mode: "json" }).$type<Record<string, Record<string, string>>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.project, t.name] })],
);

export const placementGroups = sqliteTable(
  "placement_groups",
  {
    project: text("project")
      .notNull()
      .references(() => projects.name, { onDelete: "restrict" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    // The value lists are api-types' (TypeScript only: SQLite keeps them as plain text).
    policy: text("policy", { enum: PLACEMENT_POLICIES }).notNull(),
    rigor: text("rigor", { enum: PLACEMENT_RIGORS }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.project, t.name] })],
);

export const flavors = sqliteTable("flavors", {
  name: text("name").primaryKey(),
  description: text("description").notNull().default(""),
  vcpus: integer("vcpus").notNull(),
  memoryMb: integer("memory_mb").notNull(),
  diskGb: integer("disk_gb").notNull(),
  extraSpecs: text("extra_specs", { mode: "json" }).$type<Record<string, string>>().notNull(),
});

export const images = sqliteTable("images", {
  fingerprint: text("fingerprint").primaryKey(),
  description: text("description").notNull().default(""),
  architecture: text("architecture").notNull(),
  type: text("type").notNull(),
  aliases: text("aliases", { mode: "json" }).$type<string[]>().notNull(),
  properties: text("properties", { mode: "json" }).$type<Record<string, string>>().notNull(),
});

/** Server configuration: a single row, its version bumped on every change. */
export const serverConfig = sqliteTable("server_config", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
  values: text("values", { mode: "json" }).$type<Record<string, string>>().notNull(),
});
