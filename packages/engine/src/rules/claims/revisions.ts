/**
 * The instances a claim removes or replaces must still exist, and, where
 * the claim says which revision it planned on, still be at that revision.
 */
import type { Claim, NewInstance } from "../../store/port.js";
import type { InstanceRecord } from "../../store/records.js";
import { instanceMissingFailure, revisionFailure } from "./failures.js";

export interface CurrentVersions {
  /** Current versions of every removed and replaced instance (rows to delete), in claim order. */
  removed: InstanceRecord[];
  /** Current versions of the replaced instances, by id. */
  replaced: ReadonlyMap<string, InstanceRecord>;
  /** The new versions of the replaced instances. */
  replacing: NewInstance[];
}

const NONE_REPLACED: ReadonlyMap<string, InstanceRecord> = new Map();

export function currentVersions(
  claim: Claim,
  instances: ReadonlyMap<string, InstanceRecord>,
): CurrentVersions {
  const removed: InstanceRecord[] = [];
  // Made for the first replacement: most claims replace nothing and share one empty map.
  let replaced: Map<string, InstanceRecord> | undefined;
  const replacing: NewInstance[] = [];
  const current = (id: string, expectedRevision: number | undefined): InstanceRecord => {
    const instance = instances.get(id);
    if (instance === undefined) throw instanceMissingFailure(id);
    if (expectedRevision !== undefined && expectedRevision !== instance.revision) {
      throw revisionFailure(instance, expectedRevision);
    }
    return instance;
  };
  for (const { id, expectedRevision } of claim.remove ?? []) removed.push(current(id, expectedRevision));
  for (const { record, expectedRevision } of claim.replace ?? []) {
    const old = current(record.id, expectedRevision);
    removed.push(old);
    (replaced ??= new Map()).set(old.id, old);
    replacing.push(record);
  }
  return { removed, replaced: replaced ?? NONE_REPLACED, replacing };
}
