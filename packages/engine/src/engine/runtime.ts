/**
 * The shared state behind the Engine facade: the store, the model, the clock,
 * the logger, the scriptlet host and the server configuration in force. The
 * configuration is re-read only when the store's config version moves, so
 * every process sharing a store picks up changes (e.g. a new scriptlet)
 * for the price of one cheap read per operation.
 */
import { type EffectiveServerConfig, effectiveServerConfig } from "@berth/api-types";
import type { Clock } from "../clock.js";
import { notFound } from "../errors.js";
import type { Logger } from "../logger.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type { ScriptletHost } from "../scriptlet/port.js";
import type { Store } from "../store/port.js";
import type { ConfigRecord } from "../store/records.js";
import { EngineMetrics } from "./metrics.js";

export class EngineRuntime {
  config: ConfigRecord;
  effective: EffectiveServerConfig;
  readonly metrics = new EngineMetrics();

  constructor(
    readonly store: Store,
    readonly model: ClusterModel,
    readonly clock: Clock,
    readonly logger: Logger,
    readonly scriptletHost: ScriptletHost,
    config: ConfigRecord,
  ) {
    this.config = config;
    this.effective = effectiveServerConfig(config.values);
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
    const snapshot = await this.store.snapshot();
    this.model.hydrate(snapshot);
    this.setConfig(snapshot.config);
    if (this.model.member(name) === undefined) throw notFound(`Cluster member "${name}" not found`);
  }

  nowMs(): number {
    return this.clock.now().getTime();
  }

  offlineThresholdMs(): number {
    return this.effective.offlineThresholdSeconds * 1000;
  }

  timing(): { nowMs: number; offlineThresholdMs: number } {
    return { nowMs: this.nowMs(), offlineThresholdMs: this.offlineThresholdMs() };
  }
}
