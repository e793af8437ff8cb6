/**
 * The shared state behind the Engine facade: the store, the model, the
 * placement stack, the clock, the logger, the scriptlet host and the server
 * configuration in force. The
 * configuration is re-read only when the store's config version moves, so
 * every process sharing a store picks up changes (e.g. a new scriptlet)
 * for the price of one cheap read per operation.
 */
import { type EffectiveServerConfig, effectiveServerConfig } from "@berth/api-types";
import type { Clock } from "../clock.js";
import { notFound } from "../errors.js";
import type { Logger } from "../logger.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type { PlacementStack } from "../pipeline/stack/stack.js";
import type { ScriptletHost } from "../scriptlet/port.js";
import type { Store } from "../store/port.js";
import type { ConfigRecord } from "../store/records.js";
import { EngineMetrics } from "./metrics.js";
import { offlineThresholdAfterStalls } from "./own-stall.js";
import { trackOwnWrites } from "./store-sync.js";

export class EngineRuntime {
  config: ConfigRecord;
  effective: EffectiveServerConfig;
  readonly metrics = new EngineMetrics();
  /** The store, with this engine's own writes tracked (see store-sync.ts). */
  readonly store: Store;
  /** The store's change counter as of this engine's last look (-1: never looked). */
  private seenChanges = -1;

  constructor(
    private readonly rawStore: Store,
    readonly model: ClusterModel,
    readonly clock: Clock,
    readonly logger: Logger,
    readonly scriptletHost: ScriptletHost,
    config: ConfigRecord,
    seenChanges: number,
    /** The filters and rankers every placement runs through (the model was built with its member signature). */
    readonly stack: PlacementStack,
  ) {
    this.config = config;
    this.effective = effectiveServerConfig(config.values);
    this.seenChanges = seenChanges;
    this.store = trackOwnWrites(rawStore, () => this.noteOwnWrite());
  }

  /**
   * Brings members, catalog mirrors and config in line with what other
   * engines sharing the store committed: one cheap read of the store's
   * change counter, and re-reads (O(members), a full aggregate re-hydration
   * only when membership changed) only when it moved. Stores without the
   * counter: the config version only (members then follow through tick()).
   */
  async sync(): Promise<void> {
    const store = this.rawStore;
    if (store.changeVersion === undefined) return this.syncConfig();
    const version = await store.changeVersion();
    if (version === this.seenChanges) return;
    const [config, members, groups, projects, placementGroups] = await Promise.all([
      store.getConfig(),
      store.listMembers(),
      store.groups.list(),
      store.projects.list(),
      store.placementGroups.list(),
    ]);
    // Anything committed after the counter was read moves it again: the next sync catches it.
    this.seenChanges = version;
    this.setConfig(config);
    const model = this.model;
    const sameMembers =
      members.length === model.allMembers().length &&
      members.every((record) => model.member(record.name) !== undefined);
    if (!sameMembers) {
      // Membership changed elsewhere: usage and counts of joined members come from the aggregates.
      model.hydrate(await store.snapshot());
      return;
    }
    for (const record of members) model.upsertMember(record);
    model.replaceCatalog(groups, projects, placementGroups);
  }

  /**
   * Where the store's change counter stood when this engine last caught up
   * (its own writes included); undefined for stores without the counter.
   * Anything derived from catalog rows or config (profiles, flavors, images)
   * stays valid while it does not move.
   */
  catalogEpoch(): number | undefined {
    return this.rawStore.changeVersion === undefined || this.seenChanges < 0 ? undefined : this.seenChanges;
  }

  /** After this engine's write: a counter one step further than last seen moved because of it. */
  private async noteOwnWrite(): Promise<void> {
    const version = await this.rawStore.changeVersion?.();
    if (version !== undefined && version === this.seenChanges + 1) this.seenChanges = version;
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
   * Makes sure the model knows a member another process may have registered:
   * an unknown name triggers one re-hydration from the store's aggregates
   * (rare: only when membership changed elsewhere), then not_found if the
   * store does not know it either.
   */
  async ensureMember(name: string): Promise<void> {
    if (this.model.member(name) !== undefined) return;
    await this.sync();
    if (this.model.member(name) !== undefined) return;
    const snapshot = await this.store.snapshot();
    this.model.hydrate(snapshot);
    this.setConfig(snapshot.config);
    if (this.model.member(name) === undefined) throw notFound(`Cluster member "${name}" not found`);
  }

  nowMs(): number {
    return this.clock.now().getTime();
  }

  /** `cluster.offline_threshold`, stretched by the process's own recent stalls (own-stall.ts). */
  offlineThresholdMs(): number {
    return offlineThresholdAfterStalls(this.effective.offlineThresholdSeconds * 1000, this.clock);
  }

  timing(): { nowMs: number; offlineThresholdMs: number } {
    return { nowMs: this.nowMs(), offlineThresholdMs: this.offlineThresholdMs() };
  }
}
