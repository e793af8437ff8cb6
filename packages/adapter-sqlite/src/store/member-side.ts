import { type MemberSide, type SqlTransactions, sqliteRunner } from "@berth/sql-core";
import type { Connection, RawSql } from "../connection/open-connection.js";
import { appendChanges } from "./feed-writes.js";

/** @berth/sql-core's member writes in SQLite: the write transaction holds the whole file, so no row is locked. */
export function memberSide(raw: RawSql): MemberSide {
  return {
    lockMembers: async (names) => [...names],
    append: (entries) => appendChanges(raw, entries),
  };
}

/** @berth/sql-core's tables on the store's connection: each read, each write one transaction. */
export function transactions(connection: Connection): SqlTransactions {
  return {
    read: (work) => connection.read((raw) => work(sqliteRunner(raw))),
    write: (work) => connection.write((raw) => work(sqliteRunner(raw), memberSide(raw))),
  };
}
