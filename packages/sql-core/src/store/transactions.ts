import type { MemberSide } from "../members/member-side.js";
import type { SqlRunner } from "../runner/runner.js";

/**
 * How one adapter runs a table's work: one read, or one write transaction
 * with its member side (locks, change-feed appends). Each store
 * wires its tables with what they need after a write (a wake-up of the
 * other servers, a read cache dropped).
 */
export interface SqlTransactions {
  read<T>(work: (db: SqlRunner) => Promise<T>): Promise<T>;
  write<T>(work: (db: SqlRunner, side: MemberSide) => Promise<T>): Promise<T>;
}

/** Reads a table keeps in memory where its adapter can tell they are still current. */
export interface ReadMemo {
  get<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** After a write: nothing kept is current any more. */
  forget(): void;
}

/** Keeps nothing: every read goes to the database. */
export const NO_MEMO: ReadMemo = { get: (_key, load) => load(), forget: () => undefined };
