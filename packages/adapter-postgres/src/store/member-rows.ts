import type { MemberRecord } from "@berth/engine";
import { loadMember as loadSharedMember } from "@berth/sql-core";
import type { Tx } from "../connection/pools.js";
import { txRunner } from "./runners.js";

/** For the member writes, on their transaction: @berth/sql-core's `loadMember`. */
export function loadMember(tx: Tx, name: string): Promise<MemberRecord | undefined> {
  return loadSharedMember(txRunner(tx), name);
}
