/**
 * The claim rules for Placement consumers: the same rules as an instance
 * claim (unit constraints of each new or grown row, capacity with
 * Placement's formula over what the providers hold), plus the consumer
 * generation check. A Store reads the consumers and providers named by
 * `consumerClaimReads`, calls `checkConsumerClaim`, and writes its answer.
 */
import { EngineError } from "../../base/errors.js";
import type { ConsumerWrite } from "../../store/port.js";
import type { ConsumerRecord } from "../../store/records.js";
import { checkRows } from "../claims/allocations.js";
import { checkCapacity } from "../claims/capacity.js";
import { consumptionChanges } from "../claims/consumption.js";
import type { ProviderRows } from "../claims/rows.js";
import { type UsageChange, usageChangesOf } from "../claims/usage-after.js";

/** What a Store reads, inside its transaction, for `checkConsumerClaim`. */
export interface ConsumerClaimRows {
  /** Current versions of the written consumers, by uuid (absent: none yet). */
  readonly consumers: ReadonlyMap<string, ConsumerRecord>;
  /** The providers the writes touch that exist, by uuid. */
  readonly providers: ReadonlyMap<string, ProviderRows>;
  /** The written uuids that are Berth instances' ids (their consumers are written by instance claims only). */
  readonly instances: ReadonlySet<string>;
}

/** What `checkConsumerClaim` tells the Store to write. */
export interface CheckedConsumerClaim {
  /** New versions to store (generation bumped), in write order; consumers left without rows are absent. */
  readonly stored: ConsumerRecord[];
  /** Uuids of consumers to delete (their new allocations are empty). */
  readonly deleted: string[];
  /** What to add to the providers' used amounts. */
  readonly usageChanges: UsageChange[];
  /** Providers the new allocations name: Placement bumps their generations. */
  readonly providersChanged: string[];
}

/**
 * A consumer write quoting a generation that is no longer the consumer's, in Placement's words
 * (409).
 */
export function consumerGenerationFailure(
  uuid: string,
  expected: number | null,
  actual: number | null,
): EngineError {
  return new EngineError(
    "conflict",
    // Worded as Placement words it: "expected" is the stored generation, "got" the caller's.
    `consumer generation conflict - expected ${actual ?? "null"} but got ${expected ?? "null"}`,
    { reason: "consumer_generation", consumer: uuid, expected, actual },
  );
}

/** The providers to read: every row of the current versions and of the new ones. */
export function consumerProvidersToRead(
  writes: readonly ConsumerWrite[],
  consumers: ReadonlyMap<string, ConsumerRecord>,
): string[] {
  const names = new Set<string>();
  for (const write of writes) {
    for (const row of consumers.get(write.record.uuid)?.allocations ?? []) names.add(row.member);
    for (const row of write.record.allocations) names.add(row.member);
  }
  return [...names];
}

/** A Placement write to the consumer that is a Berth instance (rules/ledger/instance-consumers.ts). */
export function instanceConsumerFailure(uuid: string): EngineError {
  return new EngineError(
    "conflict",
    `Consumer ${uuid} is a Berth instance: its allocations change only through the instance (create, move, delete)`,
    { reason: "instance_consumer", consumer: uuid },
  );
}

/**
 * Judges Placement consumer writes against the rows the Store read: generations, instances'
 * consumers left alone, unit constraints and capacity of every new or grown row; throws the first
 * refusal, else answers what to write.
 */
export function checkConsumerClaim(
  writes: readonly ConsumerWrite[],
  rows: ConsumerClaimRows,
  now: string,
): CheckedConsumerClaim {
  for (const write of writes)
    if (rows.instances.has(write.record.uuid)) throw instanceConsumerFailure(write.record.uuid);
  for (const write of writes) {
    if (write.expectedGeneration === undefined) continue;
    const current = rows.consumers.get(write.record.uuid);
    const actual = current?.generation ?? null;
    if (actual !== write.expectedGeneration)
      throw consumerGenerationFailure(write.record.uuid, write.expectedGeneration, actual);
  }
  const removed: ConsumerRecord[] = [];
  for (const write of writes) {
    const current = rows.consumers.get(write.record.uuid);
    if (current !== undefined) removed.push(current);
    checkRows(write.record, current, rows.providers);
  }
  const changes = consumptionChanges(
    removed,
    writes.map((write) => write.record),
  );
  checkCapacity(changes, rows.providers);
  const stored: ConsumerRecord[] = [];
  const deleted: string[] = [];
  for (const write of writes) {
    const current = rows.consumers.get(write.record.uuid);
    if (write.record.allocations.length === 0) {
      if (current !== undefined) deleted.push(write.record.uuid);
      continue;
    }
    stored.push({
      ...write.record,
      allocations: write.record.allocations.map((row) => ({ ...row })),
      generation: (current?.generation ?? 0) + 1,
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    });
  }
  // Placement bumps the generation of every provider the new allocations name (even unchanged
  // amounts); taking allocations away bumps nothing.
  const providersChanged = new Set<string>();
  for (const write of writes)
    for (const row of write.record.allocations)
      if (rows.providers.has(row.member)) providersChanged.add(row.member);
  return {
    stored,
    deleted,
    usageChanges: usageChangesOf(changes, rows.providers),
    providersChanged: [...providersChanged],
  };
}
