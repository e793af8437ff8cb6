import { sql } from "drizzle-orm";
import { bigserial, customType, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** PostgreSQL's 64-bit transaction id (`pg_current_xact_id()`), read as text. */
const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => "xid8",
});

/**
 * The change feed (see the package README): one row per committed change,
 * written as the last statement of the transaction that made it. `xid` is
 * the writing transaction's id: a reader keeps the snapshot of its last read
 * as its cursor and reads the rows of every transaction that snapshot did
 * not see (`pg_visible_in_snapshot`), so no commit is ever skipped, whatever
 * order the ids were drawn in. `id` orders the rows of one read: a writer
 * draws it after taking every lock it needed, so a write that waited for
 * another's locks always has the higher id.
 */
export const changeLog = pgTable(
  "change_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    xid: xid8("xid").notNull().default(sql`pg_current_xact_id()`),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    entry: jsonb("entry").notNull(),
  },
  (t) => [index("change_log_by_xid").on(t.xid), index("change_log_by_time").on(t.at)],
);

/**
 * Named leases (one row each): `healer` is held by the one server that runs
 * offline detection and healing. Time is the database's (`now()`), so the
 * servers' clocks never disagree about expiry.
 */
export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** When the feed was last pruned: readers older than this must re-hydrate. */
export const feedHorizon = pgTable("feed_horizon", {
  name: text("name").primaryKey(),
  prunedBefore: timestamp("pruned_before", { withTimezone: true, mode: "date" }).notNull(),
});
