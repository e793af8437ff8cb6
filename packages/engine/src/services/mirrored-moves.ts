/**
 * Two-member instances (a `secondary` mirroring the storage, Ganeti's
 * DRBD) do not move the way single-member ones do. Ganeti moves such an
 * instance only by failing it over (or live-migrating it) to its secondary,
 * and replaces a secondary by re-mirroring the disks to a new node
 * (`replace-disks`), both planned by its iallocator (`berth-iallocator`
 * answers `relocate` and `node-evacuate` so). Berth's LXD-side moves,
 * evacuations and healing re-create an instance on another member, which
 * would drop its mirror, so they refuse it, naming the instance and the
 * member that mirrors it, and change nothing. An edit keeps the mirror:
 * its new storage is mirrored on the secondary again.
 */

import { invalid } from "../base/errors.js";
import { withMirrors } from "../rules/claims/mirrors.js";
import type { Store } from "../store/port.js";
import type { AllocationRow, InstanceRecord } from "../store/records.js";

function labelOf(record: InstanceRecord): string {
  return record.name === "" ? record.id : record.name;
}

/** An edited instance's new rows on its location, its storage mirrored again on its secondary (if any). */
export function mirroredOn(record: InstanceRecord, rows: AllocationRow[]): AllocationRow[] {
  return record.secondary === undefined ? rows : withMirrors(rows, record.location, record.secondary);
}

/** Refuses to move a mirrored instance (`engine.move`). */
export function refuseMirroredMove(record: InstanceRecord): void {
  if (record.secondary === undefined) return;
  throw invalid(
    `Instance "${labelOf(record)}" in project "${record.project}" is mirrored on cluster member "${record.secondary}": a two-member instance moves only by failover to its secondary or a new secondary (Ganeti's failover and replace-disks)`,
  );
}

/**
 * Refuses to evacuate (or heal) `member` while an instance has it as
 * primary or secondary of a mirror: `located` are the instances on it.
 */
export async function refuseMirroredEvacuation(
  store: Store,
  member: string,
  located: readonly InstanceRecord[],
): Promise<void> {
  const mirrored = located.find((record) => record.secondary !== undefined);
  const [mirror] = mirrored === undefined ? await store.listInstances({ secondary: member }) : [];
  const record = mirrored ?? mirror;
  if (record === undefined) return;
  const role =
    record.location === member
      ? `runs there, mirrored on "${record.secondary}"`
      : `is mirrored there from "${record.location}"`;
  throw invalid(
    `Failed to evacuate cluster member "${member}": instance "${labelOf(record)}" in project "${record.project}" ${role}: a two-member instance moves only by failover to its secondary or a new secondary (Ganeti's failover and replace-disks)`,
  );
}
