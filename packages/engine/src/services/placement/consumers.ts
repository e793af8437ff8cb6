/**
 * Placement consumers and their allocations, as an engine concept: an
 * all-or-nothing write of one or several consumers' allocations goes
 * through the Store's consumer claim, which checks it with the claim rules
 * (generations, unit constraints, capacity with Placement's formula). This
 * file adds Placement's preconditions (providers and classes exist) and
 * words refusals as Placement does.
 */
import { isStandardResourceClass as isStandard } from "@berth/resources";
import { EngineError, invalid, notFound } from "../../base/errors.js";
import { providerMessages as text } from "../../providers/messages.js";
import type { EngineRuntime } from "../../runtime/runtime.js";
import type { ConsumerWrite } from "../../store/port.js";
import type { AllocationRow, ConsumerRecord, ProviderRecord } from "../../store/records.js";
import type { Providers } from "./providers.js";
import { type AllocationRequest, type ReshapeRequest, reshape } from "./reshaper.js";

/** Whose usage `providerUsage`-style queries total: a Placement project, optionally one user. */
export interface UsageQuery {
  /** Placement's project id. */
  project: string;
  /** Only this user's consumers. */
  user?: string;
}

/**
 * Placement consumers (`engine.consumers`): allocations written all-or-nothing through the Store's
 * consumer claim, on the same ledger as instances, and the reshaper.
 */
export class Consumers {
  constructor(
    private readonly runtime: EngineRuntime,
    /** Where providers are looked up: a member's root is one too (member-roots.ts). */
    private readonly providers: Providers,
  ) {}

  private get store() {
    return this.runtime.store;
  }

  /** The consumer with this UUID and its allocations; undefined when it holds none. */
  get(uuid: string): Promise<ConsumerRecord | undefined> {
    return this.store.consumers.get(uuid);
  }

  /**
   * Writes every request or none. The change feed is not read first: the
   * model only says which providers exist and which are members' roots, and
   * the store's claim checks the rows themselves, so a model behind the
   * store can only cost a refusal. A refusal is given only by a model that
   * has caught up: when a fresh read brings anything, the write runs once
   * more, as it would have run after that read. The feed is then read when
   * something looks at the model (a listing, candidates, a plan), not
   * after every claim.
   */
  async allocate(requests: readonly AllocationRequest[]): Promise<ConsumerRecord[]> {
    const feed = this.runtime.feedSync;
    if (feed === undefined) {
      await this.runtime.sync();
      return this.write(requests);
    }
    return this.write(requests).catch(async (error: unknown) => {
      if (!(error instanceof EngineError)) throw error;
      const applied = feed.applied;
      await feed.fresh().catch(() => undefined);
      if (feed.applied === applied) throw error;
      return this.write(requests);
    });
  }

  private async write(requests: readonly AllocationRequest[]): Promise<ConsumerRecord[]> {
    const writes: ConsumerWrite[] = [];
    /** Member roots named, whose rows must be stored before the claim (their allocations refer to them). */
    const memberRoots = new Map<string, ProviderRecord>();
    for (const request of requests) {
      const rows: AllocationRow[] = [];
      for (const [provider, resources] of Object.entries(request.allocations)) {
        const found = await this.providers.known(provider);
        if (found === undefined) throw invalid(text.allocationProviderMissing(provider));
        if (this.providers.memberOf(found) !== undefined) memberRoots.set(provider, found);
        for (const [resourceClass, amount] of Object.entries(resources)) {
          if (!(await this.classExists(resourceClass)))
            throw invalid(text.allocationClassMissing(request.consumerUuid, resourceClass));
          rows.push({ member: provider, resourceClass, ledger: "used", amount });
        }
      }
      writes.push({
        record: {
          uuid: request.consumerUuid,
          projectId: request.projectId,
          userId: request.userId,
          consumerType: request.consumerType,
          allocations: rows,
        },
        ...(request.expectedGeneration !== undefined
          ? { expectedGeneration: request.expectedGeneration }
          : {}),
      });
    }
    for (const [uuid, found] of memberRoots) await this.providers.row(uuid, found);
    try {
      return await this.store.consumers.claim(writes);
    } catch (error) {
      throw placementRefusal(error, writes);
    }
  }

  /** Removes a consumer's allocations (Placement `DELETE /allocations/{uuid}`). */
  async remove(uuid: string): Promise<void> {
    const current = await this.store.consumers.get(uuid);
    if (current === undefined) throw notFound(text.noAllocations(uuid));
    await this.store.consumers.claim([
      {
        record: {
          uuid,
          projectId: current.projectId,
          userId: current.userId,
          consumerType: current.consumerType,
          allocations: [],
        },
      },
    ]);
  }

  /** The consumers holding allocations on the provider with this UUID (`GET .../allocations`). */
  onProvider(uuid: string): Promise<ConsumerRecord[]> {
    return this.store.consumers.list({ provider: uuid });
  }

  /** Used amounts per class on one provider (a member's root: its instances and reservations too). */
  providerUsage(uuid: string): Promise<Record<string, number>> {
    return this.providers.usageOf(uuid);
  }

  /** The consumers of a project (and user), for `/usages`. */
  ofProject(query: UsageQuery): Promise<ConsumerRecord[]> {
    return this.store.consumers.list({ project: query.project, ...(query.user ? { user: query.user } : {}) });
  }

  /** Placement's reshaper: new inventories and consumers' allocations, all or nothing (see `reshaper.ts`). */
  reshape(request: ReshapeRequest): Promise<void> {
    return reshape(this.runtime, this.providers, request);
  }

  private async classExists(name: string): Promise<boolean> {
    return isStandard(name) || (await this.runtime.store.resourceClasses.get({ name })) !== undefined;
  }
}

/** The claim rules' refusals in Placement's words (the reasons stay for protocols that map them). */
function placementRefusal(error: unknown, writes: readonly ConsumerWrite[]): unknown {
  if (!(error instanceof EngineError)) return error;
  const details = error.details as { reason?: string; member?: string; resourceClass?: string } | undefined;
  const provider = details?.member ?? "";
  const resourceClass = details?.resourceClass ?? "";
  switch (details?.reason) {
    case "capacity": {
      const consumer =
        writes.find((w) => w.record.allocations.some((r) => r.member === provider))?.record.uuid ?? "";
      return new EngineError("conflict", text.overCapacity(consumer, resourceClass, provider), details);
    }
    case "no_inventory":
      return new EngineError("conflict", text.noInventoryToAllocate(resourceClass, provider), details);
    case "constraints":
      return new EngineError("invalid", text.unitConstraints(resourceClass, provider), details);
    default:
      return error;
  }
}
