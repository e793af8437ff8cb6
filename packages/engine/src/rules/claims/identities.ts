/** Ids and names are free: a new instance takes an unused id, and a name no other instance keeps. */
import type { NewInstance } from "../../store/port.js";
import type { InstanceRecord } from "../../store/records.js";
import { idTakenFailure, nameTakenFailure } from "./failures.js";
import { nameKey } from "./rows.js";

/**
 * Every created instance's id is unused: not stored (`takenIds`, even by an
 * instance this claim removes), not a replaced instance's, not another
 * create's of the same claim.
 */
export function checkNewIds(
  creates: readonly NewInstance[],
  replacing: readonly NewInstance[],
  takenIds: ReadonlySet<string>,
): void {
  // One create and no replacement (the usual claim) cannot clash with itself: no set to build.
  if (replacing.length === 0 && creates.length === 1) {
    const id = creates[0]!.id;
    if (takenIds.has(id)) throw idTakenFailure(id);
    return;
  }
  const seen = new Set<string>();
  for (const record of replacing) seen.add(record.id);
  for (const record of creates) {
    if (takenIds.has(record.id) || seen.has(record.id)) throw idTakenFailure(record.id);
    seen.add(record.id);
  }
}

/**
 * Every record's (project, name) is held by no instance other than one
 * this claim removes or replaces, and by no other record of the claim.
 * Unnamed reservations (name "") are addressed by id and never clash.
 */
export function checkNames(
  records: readonly NewInstance[],
  removed: readonly InstanceRecord[],
  nameHolders: ReadonlyMap<string, string>,
): void {
  // Sets only when there is something to put in them: the usual claim removes nothing and names one record.
  const gone = removed.length === 0 ? undefined : new Set(removed.map((instance) => instance.id));
  const claimed = records.length < 2 ? undefined : new Set<string>();
  for (const record of records) {
    if (record.name === "") continue;
    const key = nameKey(record.project, record.name);
    const holder = nameHolders.get(key);
    if ((holder !== undefined && gone?.has(holder) !== true) || claimed?.has(key) === true) {
      throw nameTakenFailure(record.project, record.name);
    }
    claimed?.add(key);
  }
}
