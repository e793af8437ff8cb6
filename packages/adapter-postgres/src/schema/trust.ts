import { boolean, jsonb, pgTable, text } from "drizzle-orm/pg-core";

/** berthd's trusted client certificates (same table as the SQLite store's). */
export const trustedCertificates = pgTable("trusted_certificates", {
  fingerprint: text("fingerprint").primaryKey(),
  name: text("name").notNull(),
  type: text("type").notNull(),
  restricted: boolean("restricted").notNull(),
  projects: jsonb("projects").$type<string[]>().notNull(),
  certificate: text("certificate").notNull(),
  createdAt: text("created_at").notNull(),
});

/**
 * Pending certificate-add tokens (same table as the SQLite store's; the id is the LXD operation
 * id). Only the secret's hash is kept (hex SHA-256).
 */
export const trustTokens = pgTable("trust_tokens", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  secretHash: text("secret_hash").notNull().unique(),
  restricted: boolean("restricted").notNull(),
  projects: jsonb("projects").$type<string[]>().notNull(),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
});
