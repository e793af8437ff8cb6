/**
 * Placement's reshaper (`POST /reshaper`, 1.30) as an engine operation:
 * moves inventory between providers of a tree (typically from a root to a
 * new child) together with the allocations on it, atomically through the
 * Store's `consumers.reshape` (checked there by the claim rule
 * `checkReshape`). This file adds the preconditions Placement checks first
 * (each provider exists and is at the generation the caller read, every
 * inventory is valid, allocations name existing providers and classes) and
 * words refusals as Placement's reshaper does. A member's root is found
 * as Placement shows it (with or without a stored row yet) and named as
 * the member's in the write, so the Store writes the member's inventories
 * (rules/ledger/member-root.ts).
 */
import {
  type Inventory,
  type InventoryInput,
  isStandardResourceClass,
  normalizeInventory,
} from "@berth/resources";
import { EngineError, invalid } from "../../base/errors.js";
import { providerMessages as text } from "../../providers/messages.js";
import type { EngineRuntime } from "../../runtime/runtime.js";
import type { ConsumerWrite } from "../../store/port.js";
import type { AllocationRow } from "../../store/records.js";
import type { Providers } from "./providers.js";

/** One consumer's allocations as a Placement request gives them (PUT/POST allocations, or a reshape). */
export interface AllocationRequest {
  /** The consumer's UUID (the instance or other thing holding the allocations). */
  consumerUuid: string;
  /** Placement's `project_id` of the consumer (a Keystone project, opaque to Berth). */
  projectId: string;
  /** Placement's `user_id` of the consumer (opaque to Berth). */
  userId: string;
  /** Placement's `consumer_type` (1.38+, e.g. `INSTANCE`); null when none was given. */
  consumerType: string | null;
  /** Amounts by provider uuid, then by class; empty: remove the consumer's allocations. */
  allocations: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** null: the consumer must be new; a number: its generation; absent: unchecked (before 1.28). */
  expectedGeneration?: number | null;
}

/**
 * Placement's `POST /reshaper` body: providers' new inventories and consumers' new allocations,
 * written together.
 */
export interface ReshapeRequest {
  /** By provider uuid: the generation the caller read and every inventory the provider ends with. */
  inventories: Readonly<
    Record<
      string,
      {
        /** The provider's generation as the caller read it; a different one is a conflict. */
        generation: number;
        /** Resource class -> inventory: the provider's whole new set. */
        inventories: Readonly<Record<string, InventoryInput>>;
      }
    >
  >;
  /** Every consumer whose allocations change, as `allocate` takes them. */
  allocations: readonly AllocationRequest[];
}

const MALFORMED = "malformed reshaper data";

export async function reshape(
  runtime: EngineRuntime,
  providers: Providers,
  request: ReshapeRequest,
): Promise<void> {
  const { store } = runtime;
  const classExists = async (name: string) =>
    isStandardResourceClass(name) || (await store.resourceClasses.get({ name })) !== undefined;
  const replacements = [];
  for (const [uuid, wanted] of Object.entries(request.inventories)) {
    const provider = await providers.find(uuid);
    if (provider === undefined)
      throw invalid(`Resource provider ${uuid} in inventories not found: ${text.notFound(uuid)}`, {
        reason: "provider_missing",
      });
    if (provider.generation !== wanted.generation)
      throw new EngineError(
        "conflict",
        `resource provider generation conflict for provider ${uuid}: actual: ${provider.generation}, given: ${wanted.generation}`,
        { reason: "generation" },
      );
    const inventories: Record<string, Inventory> = {};
    for (const [resourceClass, input] of Object.entries(wanted.inventories)) {
      if (!(await classExists(resourceClass)))
        throw invalid(`${MALFORMED}: ${text.noSuchClass(resourceClass)}.`);
      const normalized = normalizeInventory(resourceClass, input);
      if (!normalized.ok)
        throw invalid(
          `Bad inventory ${resourceClass} for resource provider ${uuid}: ${normalized.error.message}`,
        );
      inventories[resourceClass] = normalized.value;
    }
    const member = providers.memberOf(provider);
    replacements.push({
      provider: uuid,
      expectedGeneration: wanted.generation,
      inventories,
      ...(member !== undefined ? { member: member.name } : {}),
    });
  }
  const writes: ConsumerWrite[] = [];
  for (const allocation of request.allocations) {
    const rows: AllocationRow[] = [];
    for (const [provider, resources] of Object.entries(allocation.allocations)) {
      const found = await providers.find(provider);
      if (found === undefined) throw invalid(text.allocationProviderMissing(provider));
      // Allocations refer to the root's row: stored first, as a claim does.
      if (providers.memberOf(found) !== undefined) await providers.row(provider);
      for (const [resourceClass, amount] of Object.entries(resources)) {
        if (!(await classExists(resourceClass)))
          throw invalid(`${MALFORMED}: ${text.noSuchClass(resourceClass)}.`);
        rows.push({ member: provider, resourceClass, ledger: "used", amount });
      }
    }
    const { consumerUuid: uuid, projectId, userId, consumerType, expectedGeneration } = allocation;
    writes.push({
      record: { uuid, projectId, userId, consumerType, allocations: rows },
      ...(expectedGeneration !== undefined ? { expectedGeneration } : {}),
    });
  }
  try {
    await store.consumers.reshape({ inventories: replacements, writes });
  } catch (error) {
    throw reshapeRefusal(error);
  }
}

/** The claim rules' refusals as Placement's reshaper words them. */
function reshapeRefusal(error: unknown): unknown {
  if (!(error instanceof EngineError)) return error;
  const details = error.details as { reason?: string; member?: string; resourceClass?: string } | undefined;
  const provider = details?.member ?? "";
  const resourceClass = details?.resourceClass ?? "";
  switch (details?.reason) {
    case "capacity":
      return new EngineError(
        "conflict",
        `Unable to allocate inventory: Unable to create allocation for '${resourceClass}' on resource provider '${provider}'. The requested amount would exceed the capacity.`,
        details,
      );
    case "no_inventory":
      return new EngineError("conflict", text.noInventoryToAllocate(resourceClass, provider), details);
    case "constraints":
      return new EngineError(
        "conflict",
        `Unable to allocate inventory: ${text.unitConstraints(resourceClass, provider)}`,
        details,
      );
    case "inventory_in_use":
    case "consumer_generation":
      return new EngineError(error.kind, `update conflict: ${error.message}`, details);
    default:
      return error;
  }
}
