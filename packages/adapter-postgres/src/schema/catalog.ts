import { PLACEMENT_POLICIES, PLACEMENT_RIGORS } from "@berth/api-types";
import { bigint, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

export const projects = pgTable("projects", {
  name: text("name").primaryKey(),
  description: text("description").notNull().default(""),
  config: jsonb("config").$type<Record<string, string>>().notNull(),
});

export const profiles = pgTable(
  "profiles",
  {
    // RESTRICT: a project cannot go while it still has profiles.
    project: text("project")
      .notNull()
      .references(() => projects.name, { onDelete: "restrict" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    config: jsonb("config").$type<Record<string, string>>().notNull(),
    devices: jsonb("devices").$type<Record<string, Record<string, string>>>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.project, t.name] })],
);

export const placementGroups = pgTable(
  "placement_groups",
  {
    project: text("project")
      .notNull()
      .references(() => projects.name, { onDelete: "restrict" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    policy: text("policy", { enum: PLACEMENT_POLICIES }).notNull(),
    rigor: text("rigor", { enum: PLACEMENT_RIGORS }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.project, t.name] })],
);

export const flavors = pgTable("flavors", {
  name: text("name").primaryKey(),
  description: text("description").notNull().default(""),
  vcpus: integer("vcpus").notNull(),
  memoryMb: bigint("memory_mb", { mode: "number" }).notNull(),
  diskGb: bigint("disk_gb", { mode: "number" }).notNull(),
  extraSpecs: jsonb("extra_specs").$type<Record<string, string>>().notNull(),
});

export const images = pgTable("images", {
  fingerprint: text("fingerprint").primaryKey(),
  description: text("description").notNull().default(""),
  architecture: text("architecture").notNull(),
  type: text("type").notNull(),
  aliases: jsonb("aliases").$type<string[]>().notNull(),
  properties: jsonb("properties").$type<Record<string, string>>().notNull(),
});

/** Server configuration: a single row, its version bumped on every change. */
export const serverConfig = pgTable("server_config", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
  values: jsonb("values").$type<Record<string, string>>().notNull(),
});
