/**
 * Heartbeats from other processes. A heartbeat (and the state it reports)
 * updates a member's record without moving the store's change counter —
 * every member sends one every few seconds — so an engine sharing the store
 * learns of heartbeats another process received only by re-reading members.
 * Re-reading every member on every tick parses every record (state,
 * resources, inventories) and re-derives it in the model: hundreds of
 * milliseconds of a blocked event loop at 10,000 members.
 *
 * Only members whose last heartbeat known here is getting old can change
 * anything: a fresher heartbeat elsewhere never turns an online member
 * offline. So a tick re-reads just the members this engine has not heard
 * from for half the offline threshold: in one process (every heartbeat
 * arrives here) that is only members that really went quiet; with several
 * processes a member heartbeating elsewhere is re-read about twice per
 * threshold, long before it could look offline here.
 */
import type { MemberState } from "../model/member-state.js";
import type { EngineRuntime } from "../runtime/runtime.js";

/** Up to this many quiet members are read one by one; more, and one full listing is cheaper. */
const SINGLE_READS_MAX = 64;

export type MemberSyncResult =
  /** The model has every member's latest heartbeat (as far as it matters). */
  | "in-step"
  /** The store's membership differs from the model's: re-hydrate. */
  | "membership-changed";

function quietMembers(runtime: EngineRuntime): MemberState[] {
  const { nowMs, offlineThresholdMs } = runtime.timing();
  const horizonMs = offlineThresholdMs / 2;
  return runtime.model
    .allMembers()
    .filter((member) => member.heartbeatMs === null || nowMs - member.heartbeatMs > horizonMs);
}

/** Every member re-read (the only way to notice membership changes without the change counter). */
async function syncAllMembers(runtime: EngineRuntime): Promise<MemberSyncResult> {
  const records = await runtime.store.listMembers();
  const model = runtime.model;
  const sameMembers =
    records.length === model.allMembers().length &&
    records.every((record) => model.member(record.name) !== undefined);
  if (!sameMembers) return "membership-changed";
  for (const record of records) model.upsertMember(record);
  return "in-step";
}

/**
 * Brings heartbeats other processes received into the model. Stores
 * without a change feed (`Store.feed`) get every member
 * re-read, as membership changes reach the engine only this way there.
 */
export async function syncMemberHeartbeats(runtime: EngineRuntime): Promise<MemberSyncResult> {
  if (runtime.store.feed === undefined) return syncAllMembers(runtime);
  const quiet = quietMembers(runtime);
  if (quiet.length === 0) return "in-step";
  const all = runtime.model.allMembers().length;
  if (quiet.length > SINGLE_READS_MAX && quiet.length > all / 8) return syncAllMembers(runtime);
  const records = await Promise.all(quiet.map((member) => runtime.store.getMember(member.name)));
  // A member deleted elsewhere moves the change counter, so sync() normally saw it first.
  if (records.some((record) => record === undefined)) return "membership-changed";
  for (const record of records) if (record !== undefined) runtime.model.upsertMember(record);
  return "in-step";
}
