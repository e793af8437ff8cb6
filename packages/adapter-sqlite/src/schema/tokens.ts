import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * API tokens of the server (berthd): only the SHA-256 of each secret is
 * kept. In the database rather than beside it, so every server sharing the
 * store (another process, another host, a remote libSQL database) knows
 * the same tokens, and revocation reaches all of them at once.
 */
export const apiTokens = sqliteTable("api_tokens", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  description: text("description"),
  /** Hex SHA-256 of the secret; looked up on every authenticated request. */
  hash: text("hash").notNull().unique(),
  admin: integer("admin", { mode: "boolean" }).notNull(),
  /** Projects a restricted token may use; empty for admin tokens. */
  projects: text("projects", { mode: "json" }).$type<string[]>().notNull(),
  createdAt: text("created_at").notNull(),
});
