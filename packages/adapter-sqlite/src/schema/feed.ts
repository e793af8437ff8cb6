import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The change feed (the engine's store/change-feed.ts): one row per
 * committed change, written in the same transaction. SQLite has one writer
 * at a time, so ids are in commit order and a reader's cursor is the last id
 * it read. Replaces migration 0004's change counter, which said only that
 * something changed (and nothing for claims).
 */
export const changeLog = sqliteTable("change_log", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /**
   * Unix ms at commit time; pruning keeps the last minutes. Not indexed (an index page
   * written by every commit): ids follow commit order, so pruning reads from the oldest.
   */
  at: integer("at").notNull(),
  entry: text("entry").notNull(),
});

/** How far pruning went (one row): a reader whose cursor is older re-hydrates. */
export const feedHorizon = sqliteTable("feed_horizon", {
  id: integer("id").primaryKey(),
  /** Every entry with a smaller or equal id may be gone. */
  prunedThrough: integer("pruned_through").notNull(),
});

/** Named leases: `healer` is held by the one process that runs offline detection and healing. */
export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  /** Unix ms; processes on one file share a host, hence a clock. */
  expiresAt: integer("expires_at").notNull(),
});
