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
  const gone = new Set<string>();
  for (const instance of removed) gone.add(instance.id);
  const claimed = new Set<string>();
  for (const record of records) {
    if (record.name === "") continue;
    const key = nameKey(record.project, record.name);
    const holder = nameHolders.get(key);
    if ((holder !== undefined && !gone.has(holder)) || claimed.has(key)) {
      throw nameTakenFailure(record.project, record.name);
    }
    claimed.add(key);
  }
}
