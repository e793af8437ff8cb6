/**
 * An instance's rows on Placement providers that are not members (the
 * child providers of a member's tree: NUMA nodes, GPUs, FPGAs) are held as
 * the Placement consumer whose uuid is the instance's id: consumer type
 * `INSTANCE`, project the instance's LXD project, user `berth`, generation
 * the instance's revision, one "used" row per class. So every Store counts
 * them where it counts every other allocation on such a provider (its
 * consumers' sums), Placement's usages and in-use checks see them, and a
 * Placement client reads them with `GET /allocations/{instance uuid}`.
 *
 * The instance stays an instance: the claim that writes or removes it
 * writes or removes its consumer in the same transaction, instance ids and
 * consumer uuids share one namespace (a create whose id a consumer holds
 * is refused, `takenIds`), and a Placement write to an instance's consumer
 * is refused (`instanceConsumerFailure`, consumer-claim.ts).
 *
 * As Placement does for its own allocations, the claim moves the
 * generation of every provider its stored consumers' rows name (taking
 * rows away moves none): a Placement client holding a provider's
 * generation from before a change of its usage gets a conflict.
 */
import type { ConsumerRecord, InstanceRecord } from "../../store/records.js";
import { isPlacementProvider, type ProviderRows } from "../claims/rows.js";
import type { UsageChange } from "../claims/usage-after.js";

/** The user id of the consumers that are Berth instances. */
export const INSTANCE_CONSUMER_USER = "berth";

/** The consumer type of the consumers that are Berth instances (Placement 1.38's INSTANCE). */
export const INSTANCE_CONSUMER_TYPE = "INSTANCE";

/** What a claim writes to the consumer tables for its instances' rows on Placement providers. */
export interface InstanceConsumers {
  /** Consumers to delete first: every removed or replaced instance that had such rows. */
  readonly deleted: string[];
  /** Consumers to insert after: every stored instance that has such rows. */
  readonly stored: ConsumerRecord[];
  /** The change of those providers' usage (already in the consumers' rows; the change feed carries it). */
  readonly usageChanges: UsageChange[];
  /** Providers whose generation the claim moves: those the stored consumers' rows name, once each. */
  readonly providersChanged: string[];
}

export const NO_INSTANCE_CONSUMERS: InstanceConsumers = Object.freeze({
  deleted: [],
  stored: [],
  usageChanges: [],
  providersChanged: [],
}) as InstanceConsumers;

function onPlacementProvider(providers: ReadonlyMap<string, ProviderRows>) {
  return (row: { member: string }) => isPlacementProvider(providers, row.member);
}

/** Whether any of `instances` has a row on a Placement provider. */
function holdsOnPlacement(
  instances: readonly InstanceRecord[],
  providers: ReadonlyMap<string, ProviderRows>,
): boolean {
  for (const instance of instances)
    for (const row of instance.allocations) if (isPlacementProvider(providers, row.member)) return true;
  return false;
}

/** The consumer an instance is on Placement providers, if it holds anything there. */
export function instanceConsumerOf(
  instance: InstanceRecord,
  providers: ReadonlyMap<string, ProviderRows>,
): ConsumerRecord | undefined {
  const rows = instance.allocations.filter(onPlacementProvider(providers));
  if (rows.length === 0) return undefined;
  return {
    uuid: instance.id,
    projectId: instance.project,
    userId: INSTANCE_CONSUMER_USER,
    consumerType: INSTANCE_CONSUMER_TYPE,
    generation: instance.revision,
    allocations: rows.map((row) => ({ ...row, ledger: "used" as const })),
    createdAt: instance.createdAt,
    updatedAt: instance.createdAt,
  };
}

/**
 * The consumer writes of a checked claim: `removed` (current versions of
 * removed and replaced instances) and `stored` (new versions), with the
 * claim's usage changes on Placement providers (`placementChanges`).
 */
export function instanceConsumersOf(
  removed: readonly InstanceRecord[],
  stored: readonly InstanceRecord[],
  providers: ReadonlyMap<string, ProviderRows>,
  placementChanges: UsageChange[],
): InstanceConsumers {
  // Most claims hold nothing on Placement providers: the shared empty writes, with no filtered
  // arrays nor closure made first (256 bytes per create; perf-core-6 iso loop, 2026-11-29).
  if (
    placementChanges.length === 0 &&
    !holdsOnPlacement(removed, providers) &&
    !holdsOnPlacement(stored, providers)
  )
    return NO_INSTANCE_CONSUMERS;
  const onPlacement = onPlacementProvider(providers);
  const deleted = removed.filter((old) => old.allocations.some(onPlacement)).map((old) => old.id);
  const consumers: ConsumerRecord[] = [];
  for (const record of stored) {
    const consumer = instanceConsumerOf(record, providers);
    if (consumer !== undefined) consumers.push(consumer);
  }
  if (deleted.length === 0 && consumers.length === 0 && placementChanges.length === 0)
    return NO_INSTANCE_CONSUMERS;
  return {
    deleted,
    stored: consumers,
    usageChanges: placementChanges,
    providersChanged: providersNamed(consumers),
  };
}

/** One write for several claims' consumer writes (a group commit), in claim order. */
export function combineInstanceConsumers(parts: readonly InstanceConsumers[]): InstanceConsumers {
  const deleted = new Set<string>();
  const latest = new Map<string, ConsumerRecord | null>();
  const usageChanges: UsageChange[] = [];
  for (const part of parts) {
    for (const uuid of part.deleted) {
      deleted.add(uuid);
      latest.set(uuid, null);
    }
    for (const record of part.stored) latest.set(record.uuid, record);
    usageChanges.push(...part.usageChanges);
  }
  const stored = [...latest.values()].filter((record): record is ConsumerRecord => record !== null);
  if (deleted.size === 0 && stored.length === 0 && usageChanges.length === 0) return NO_INSTANCE_CONSUMERS;
  return {
    deleted: [...deleted],
    stored,
    usageChanges,
    providersChanged: [...new Set(parts.flatMap((part) => part.providersChanged))],
  };
}

/** The providers `consumers`' rows name, once each. */
function providersNamed(consumers: readonly ConsumerRecord[]): string[] {
  return [...new Set(consumers.flatMap((consumer) => consumer.allocations.map((row) => row.member)))];
}
