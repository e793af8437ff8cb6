/**
 * The shared state behind the Engine facade: the store, the model, the clock,
 * the logger, the scriptlet host and the server configuration in force. The
 * configuration is re-read only when the store's config version moves, so
 * every process sharing a store picks up changes (e.g. a new scriptlet)
 * for the price of one cheap read per operation.
 */
import { type EffectiveServerConfig, effectiveServerConfig } from "@berth/api-types";
import type { Clock } from "../clock.js";
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
