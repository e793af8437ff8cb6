/**
 * The shared state behind the Engine facade: the store, the model, the
 * placement stack, the clock, the logger, the scriptlet runner and the server
 * configuration in force. The
 * configuration is re-read only when the store's config version moves, so
 * every process sharing a store picks up changes (e.g. a new scriptlet)
 * for the price of one cheap read per operation.
 */
import { type EffectiveServerConfig, effectiveServerConfig } from "@berth/api-types";
import type { Clock } from "../base/clock.js";
import { isEngineError, notFound } from "../base/errors.js";
import type { Logger } from "../base/logger.js";
import type { PlacementStack } from "../candidates/stack.js";
import type { ClusterModel } from "../model/cluster-model.js";
import { attachMemberTrees } from "../providers/member-trees.js";
import { ProviderModel } from "../providers/provider-model.js";
import type { ScriptletRunner } from "../scriptlet/port.js";
import type { Claim, ClaimResult, Store, StoreSnapshot } from "../store/port.js";
import type { ConfigRecord } from "../store/records.js";
import { FeedSync } from "./feed-sync.js";
import { EngineMetrics } from "./metrics.js";
import { clockStalls, offlineThresholdAfterStalls, type StallSource } from "./own-stall.js";
import { PlanLock } from "./plan-lock.js";

export class EngineRuntime {
  config: ConfigRecord;
  effective: EffectiveServerConfig;
  readonly metrics = new EngineMetrics();
  /**
   * How long this process itself could not run lately (own-stall.ts): the
   * clock's measure, else the engine's late ticks; undefined: no measure.
   */
  stalls: StallSource | undefined;
  /** Placement plans run one at a time (see plan-lock.ts). */
  readonly planLock = new PlanLock();
  /** Placement's providers and what consumers hold on them (providers/provider-model.ts). */
  readonly providerModel = new ProviderModel();
  /** For stores with a change feed: how this engine follows it (see runtime/feed-sync.ts). */
  readonly feedSync: FeedSync | undefined;

  /** Stops telling the feed of this engine's own writes (`detach`). */
  private readonly stopOwnWrites: (() => void) | undefined;

  constructor(
    /** The store; it tells the feed sync of its own committed writes (`Store.onCommittedWrite`). */
    readonly store: Store,
    readonly model: ClusterModel,
    readonly clock: Clock,
    readonly logger: Logger,
    /** Runs scriptlets: in this thread, or in worker threads (berthd). */
    readonly scriptlets: ScriptletRunner,
    config: ConfigRecord,
    /** The filters and rankers every placement runs through (the model was built with its member signature). */
    readonly stack: PlacementStack,
    feedCursor?: string,
  ) {
    this.config = config;
    this.stalls = clockStalls(this.clock);
    this.effective = effectiveServerConfig(config.values);
    this.feedSync =
      store.feed !== undefined && feedCursor !== undefined
        ? new FeedSync(this, store.feed, feedCursor)
        : undefined;
    this.stopOwnWrites = this.feedSync?.followOwnWrites(store);
  }

  /** This engine's claims being written to the store (the feed path waits for them before a 507). */
  private readonly claimsInFlight = new Set<Promise<unknown>>();
  /** Set while a re-hydration waits for the claims in flight and rebuilds the model: new claims wait. */
  private hydrating: Promise<void> | null = null;

  /**
   * Runs a store claim, counted as in flight until it settles; `committed`
   * runs with its answer before anything else sees it. A claim waits while
   * the model is being re-hydrated (see `withoutClaimsInFlight`).
   */
  runClaim(claim: Claim, committed: (result: ClaimResult) => void): Promise<ClaimResult> {
    if (this.hydrating !== null) return this.hydrating.then(() => this.runClaim(claim, committed));
    // One `then` with both handlers, not `then` and `finally`: two promise hops fewer per claim.
    const tracked: Promise<ClaimResult> = this.store.claim(claim).then(
      (result) => {
        this.claimsInFlight.delete(tracked);
        committed(result);
        return result;
      },
      (error: unknown) => {
        this.claimsInFlight.delete(tracked);
        throw error;
      },
    );
    this.claimsInFlight.add(tracked);
    return tracked;
  }

  /** Waits until every claim in flight now has settled; false when none was. */
  async claimsSettled(): Promise<boolean> {
    if (this.claimsInFlight.size === 0) return false;
    await Promise.allSettled([...this.claimsInFlight]);
    return true;
  }

  /**
   * Runs `rebuild` once no claim of this engine is in flight, holding new
   * ones back until it is done: a claim that commits while a snapshot is
   * taken would otherwise be both in the snapshot and applied to the model
   * built from it (runtime/feed-sync.ts).
   */
  async withoutClaimsInFlight<T>(rebuild: () => Promise<T>): Promise<T> {
    while (this.hydrating !== null) await this.hydrating;
    let done!: () => void;
    this.hydrating = new Promise<void>((resolve) => {
      done = resolve;
    });
    try {
      await Promise.allSettled([...this.claimsInFlight]);
      return await rebuild();
    } finally {
      this.hydrating = null;
      done();
    }
  }

  /** The engine stops: its store no longer tells it of writes. */
  detach(): void {
    this.stopOwnWrites?.();
  }

  /** Rebuilds the model from a fresh snapshot (aggregates), keeping the feed cursor in step. */
  async rehydrate(): Promise<void> {
    if (this.feedSync !== undefined) return this.feedSync.rehydrate();
    this.applySnapshot(await this.store.snapshot());
  }

  /** The model, the provider model and the config as a snapshot has them. */
  applySnapshot(snapshot: StoreSnapshot): void {
    this.model.hydrate(snapshot);
    this.providerModel.hydrate(snapshot);
    this.setConfig(snapshot.config);
  }

  /**
   * Brings the model in line with what other engines sharing the store
   * committed: with a change feed, everything not applied yet (see
   * runtime/feed-sync.ts); without one, the config version only (members then
   * follow through tick()).
   */
  sync(): Promise<void> {
    // Not `async`: an async function returning the read's promise costs a promise and two ticks more.
    return this.feedSync !== undefined ? this.feedSync.beforePlan() : this.syncConfig();
  }

  /** The provider revision and member epoch the members' trees were built at. */
  private treesBuiltAt: readonly [revision: number, epoch: number] = [-1, -1];

  /**
   * Gives every member the child providers under its root (providers/member-trees.ts)
   * when the provider rows or the members changed since the last time: two
   * comparisons otherwise. Placements call it before they plan (claim/claim.ts
   * `planDraft`, dry runs); what the children hold is read live, so usage
   * changes never rebuild. Undefined (no promise) when nothing changed.
   */
  syncTrees(): Promise<void> | undefined {
    const revision = this.providerModel.rowsRevision;
    const epoch = this.model.staticEpoch;
    if (revision === this.treesBuiltAt[0] && epoch === this.treesBuiltAt[1]) return undefined;
    return this.buildTrees(revision, epoch);
  }

  private async buildTrees(revision: number, epoch: number): Promise<void> {
    const rows = await this.providerModel.providers(this.store);
    attachMemberTrees(this.model, rows, (uuid) => this.providerModel.consumersUsed().get(uuid));
    this.treesBuiltAt = [revision, epoch];
  }

  /**
   * Moves with every catalog, config or member change this engine applied
   * or made (undefined for stores without a feed): anything derived from
   * catalog rows or config (profiles, flavors, images) stays valid while it
   * does not move.
   */
  catalogEpoch(): number | undefined {
    return this.feedSync?.epoch;
  }

  setConfig(config: ConfigRecord): void {
    this.config = config;
    this.effective = effectiveServerConfig(config.values);
  }

  /** Re-reads the config when another process (or engine) changed it. */
  async syncConfig(): Promise<void> {
    const version = await this.store.getConfigVersion();
    if (version !== this.config.version) this.setConfig(await this.store.getConfig());
  }

  /**
   * Runs `work` (which writes nothing when it throws); when it refuses with
   * not_found or invalid and a fresh read of the change feed brings
   * anything new, runs it once more. A member, group, project or profile
   * another server created a moment ago may not have reached this model
   * yet (its notification is on the way): like a capacity refusal, such an
   * answer is only given by a model that has caught up with the store.
   */
  againIfStale<T>(work: () => Promise<T>): Promise<T> {
    // A `catch` on the work's promise, not an async wrapper awaiting it: no hop when it succeeds.
    return work().catch(async (error: unknown) => {
      const feed = this.feedSync;
      if (feed === undefined || !(isEngineError(error, "not_found") || isEngineError(error, "invalid")))
        throw error;
      const applied = feed.applied;
      await feed.fresh();
      if (feed.applied === applied) throw error;
      return work();
    });
  }

  /**
   * Makes sure the model knows a member another process may have registered:
   * an unknown name triggers one re-hydration from the store's aggregates
   * (rare: only when membership changed elsewhere), then not_found if the
   * store does not know it either.
   */
  async ensureMember(name: string): Promise<void> {
    if (this.model.member(name) !== undefined) return;
    await this.sync();
    if (this.model.member(name) !== undefined) return;
    await this.rehydrate();
    if (this.model.member(name) === undefined) throw notFound(`Cluster member "${name}" not found`);
  }

  nowMs(): number {
    return this.clock.now().getTime();
  }

  /** `cluster.offline_threshold`, stretched by the process's own recent stalls (own-stall.ts). */
  offlineThresholdMs(): number {
    return offlineThresholdAfterStalls(this.effective.offlineThresholdSeconds * 1000, this.stalls);
  }

  timing(): { nowMs: number; offlineThresholdMs: number } {
    return { nowMs: this.nowMs(), offlineThresholdMs: this.offlineThresholdMs() };
  }
}
