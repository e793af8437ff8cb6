import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * berthd's trust store, the LXD way: the TLS client certificates it
 * trusts (public certificates, keyed by LXD's fingerprint, hex SHA-256 of
 * the DER) and the pending certificate-add tokens (`lxc config trust
 * add`). In the database, so every server sharing it trusts the same
 * clients and any of them can redeem, list or revoke a token.
 */
export const trustedCertificates = sqliteTable("trusted_certificates", {
  fingerprint: text("fingerprint").primaryKey(),
  name: text("name").notNull(),
  type: text("type").notNull(),
  restricted: integer("restricted", { mode: "boolean" }).notNull(),
  /** Projects a restricted certificate may use; empty otherwise. */
  projects: text("projects", { mode: "json" }).$type<string[]>().notNull(),
  /** PEM. */
  certificate: text("certificate").notNull(),
  createdAt: text("created_at").notNull(),
});

/**
 * Pending certificate-add tokens. The id is the token's LXD operation id.
 * Only the secret's hash is kept (hex SHA-256, as for API tokens): the
 * secret is shown once when the token is made, and a copy of the database
 * holds nothing a client could redeem. A token is single-use and expires
 * (`expires_at`).
 */
export const trustTokens = sqliteTable("trust_tokens", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  secretHash: text("secret_hash").notNull().unique(),
  restricted: integer("restricted", { mode: "boolean" }).notNull(),
  projects: text("projects", { mode: "json" }).$type<string[]>().notNull(),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
});
