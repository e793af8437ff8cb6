/**
 * The claim rule of Placement's reshaper (`POST /reshaper`): some
 * providers' inventories are replaced and consumers' allocations rewritten
 * together, so a class can move from a provider to its new child with the
 * allocations on it. A Store reads the providers and consumers named by
 * `reshapeProvidersToRead`, calls `checkReshape` inside one transaction and
 * writes its answer (providers, then consumers), or nothing.
 *
 * As Placement does it: each provider's generation must be the one the
 * caller read; the allocations are judged against an interim inventory
 * (the new inventories over the old ones, so a class being removed still
 * holds what is moved away from it), every written allocation meets its
 * inventory's unit limits and fits its capacity; then the new inventories
 * replace the old, and a class still holding allocations cannot go. A
 * reshaped provider's generation moves once for the interim inventory (when
 * it has new inventories), once when allocations name it, once for the final
 * inventory.
 */
import { type Inventory, inventoryCapacity } from "@berth/resources";
import { EngineError, notFound } from "../../base/errors.js";
import type { ReshapeWrite } from "../../store/port.js";
import type { ConsumerRecord } from "../../store/records.js";
import { checkRows } from "../claims/allocations.js";
import { capacityFailure } from "../claims/failures.js";
import type { ProviderRows } from "../claims/rows.js";
import { type CheckedConsumerClaim, checkConsumerClaim, consumerProvidersToRead } from "./consumer-claim.js";

/** A provider as the reshape reads it: its generation too. */
export interface ReshapeProviderRows extends ProviderRows {
  /** The provider's generation as stored, which the reshape's `expectedGeneration` must match. */
  readonly generation: number;
}

/** What a Store reads, inside its transaction, for `checkReshape`. */
export interface ReshapeRows {
  /** Current versions of the written consumers, by uuid. */
  readonly consumers: ReadonlyMap<string, ConsumerRecord>;
  /** The written uuids that are Berth instances' ids (never written by a reshape). */
  readonly instances: ReadonlySet<string>;
  /** The providers named by `reshapeProvidersToRead` that exist, by uuid. */
  readonly providers: ReadonlyMap<string, ReshapeProviderRows>;
}

/** A provider's row after the reshape. */
export interface ReshapedProvider {
  /** The provider's UUID. */
  uuid: string;
  /** Its generation after the reshape (moved once). */
  generation: number;
  /** Resource class -> inventory: its whole new set. */
  inventories: Record<string, Inventory>;
}

/** What `checkReshape` tells the Store to write: providers, then consumers. */
export interface CheckedReshape {
  /** Providers to write (inventories and generation), reshaped or named by allocations. */
  providers: ReshapedProvider[];
  /** The consumers' part; its `providersChanged` is already counted in `providers`. */
  consumers: CheckedConsumerClaim;
}

/**
 * The providers a reshape touches: those reshaped, and every provider the consumers' old or new
 * allocations name.
 */
export function reshapeProvidersToRead(
  change: ReshapeWrite,
  consumers: ReadonlyMap<string, ConsumerRecord>,
): string[] {
  return [
    ...new Set([
      ...change.inventories.map((i) => i.provider),
      ...consumerProvidersToRead(change.writes, consumers),
    ]),
  ];
}

export function reshapeGenerationFailure(provider: string, actual: number, given: number): EngineError {
  return new EngineError(
    "conflict",
    `resource provider generation conflict for provider ${provider}: actual: ${actual}, given: ${given}`,
    { reason: "generation", provider, actual, given },
  );
}

export function reshapeInventoryInUse(provider: string, classes: readonly string[]): EngineError {
  return new EngineError(
    "conflict",
    `Inventory for '${classes.join(", ")}' on resource provider '${provider}' in use.`,
    { reason: "inventory_in_use", provider, classes },
  );
}

/** What each written row's provider and class hold once the consumers are written. */
function usedAfter(rows: ReshapeRows, checked: CheckedConsumerClaim): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const [uuid, provider] of rows.providers) out.set(uuid, { ...provider.used });
  for (const change of checked.usageChanges) {
    const used = out.get(change.provider);
    if (used !== undefined) used[change.resourceClass] = (used[change.resourceClass] ?? 0) + change.amount;
  }
  return out;
}

/**
 * Judges a reshape as Placement does (see the file's comment); throws the first refusal, else
 * answers the providers and consumers to write.
 */
export function checkReshape(change: ReshapeWrite, rows: ReshapeRows, now: string): CheckedReshape {
  const interim = new Map<string, ReshapeProviderRows>(rows.providers);
  for (const replacement of change.inventories) {
    const current = rows.providers.get(replacement.provider);
    if (current === undefined)
      throw notFound(`No resource provider with uuid ${replacement.provider} found`, {
        reason: "provider_missing",
        provider: replacement.provider,
      });
    if (current.generation !== replacement.expectedGeneration)
      throw reshapeGenerationFailure(
        replacement.provider,
        current.generation,
        replacement.expectedGeneration,
      );
    if (Object.keys(replacement.inventories).length > 0)
      interim.set(replacement.provider, {
        ...current,
        inventories: { ...current.inventories, ...replacement.inventories },
      });
  }
  // Every written allocation is judged against the interim inventories, not only new or grown ones.
  for (const write of change.writes) checkRows(write.record, undefined, interim);
  const consumers = checkConsumerClaim(
    change.writes,
    { consumers: rows.consumers, providers: interim, instances: rows.instances },
    now,
  );
  const used = usedAfter(rows, consumers);
  for (const write of change.writes)
    for (const row of write.record.allocations) {
      const inventory = interim.get(row.member)?.inventories[row.resourceClass];
      const after = used.get(row.member)?.[row.resourceClass] ?? 0;
      if (inventory !== undefined && after > inventoryCapacity(inventory))
        throw capacityFailure(
          row.member,
          row.resourceClass,
          row.amount,
          after - row.amount,
          inventoryCapacity(inventory),
        );
    }
  // Placement writes a consumer's removal as zeroed allocations: those providers move too.
  const named = new Set(consumers.providersChanged);
  for (const write of change.writes)
    if (write.record.allocations.length === 0)
      for (const row of rows.consumers.get(write.record.uuid)?.allocations ?? [])
        if (rows.providers.has(row.member)) named.add(row.member);
  const out = new Map<string, ReshapedProvider>();
  for (const uuid of named) {
    const current = rows.providers.get(uuid) as ReshapeProviderRows;
    out.set(uuid, { uuid, generation: current.generation + 1, inventories: { ...current.inventories } });
  }
  for (const replacement of change.inventories) {
    const uuid = replacement.provider;
    const current = rows.providers.get(uuid) as ReshapeProviderRows;
    const left = used.get(uuid) ?? {};
    const dropped = Object.keys(left).filter(
      (c) => (left[c] ?? 0) > 0 && replacement.inventories[c] === undefined,
    );
    if (dropped.length > 0) throw reshapeInventoryInUse(uuid, dropped.sort());
    const steps = (Object.keys(replacement.inventories).length > 0 ? 1 : 0) + (named.has(uuid) ? 1 : 0) + 1;
    out.set(uuid, {
      uuid,
      generation: current.generation + steps,
      inventories: { ...replacement.inventories },
    });
  }
  return { providers: [...out.values()], consumers: { ...consumers, providersChanged: [] } };
}
