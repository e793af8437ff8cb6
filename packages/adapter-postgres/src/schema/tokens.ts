import { boolean, jsonb, pgTable, text } from "drizzle-orm/pg-core";

/** berthd's API tokens: only the SHA-256 of each secret is kept (same table as the SQLite store's). */
export const apiTokens = pgTable("api_tokens", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  description: text("description"),
  hash: text("hash").notNull().unique(),
  admin: boolean("admin").notNull(),
  projects: jsonb("projects").$type<string[]>().notNull(),
  createdAt: text("created_at").notNull(),
});
