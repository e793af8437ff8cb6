import type { MemberRecord } from "@berth/engine";
import { loadMember as loadSharedMember, loadMembers as loadSharedMembers } from "@berth/sql-core";
import type { Tx } from "../connection/pools.js";
import { txRunner } from "./runners.js";

/** For the member writes, on their transaction: @berth/sql-core's `loadMember`. */
export function loadMember(tx: Tx, name: string): Promise<MemberRecord | undefined> {
  return loadSharedMember(txRunner(tx), name);
}

/** For the member writes, on their transaction: @berth/sql-core's `loadMembers` (join order). */
export function loadMembers(tx: Tx, names: readonly string[]): Promise<MemberRecord[]> {
  return loadSharedMembers(txRunner(tx), names);
}
