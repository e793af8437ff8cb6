/**
 * Counters the engine keeps for `/1.0/metrics` (the server adds latency
 * histograms around its calls). Plain numbers, no metrics library.
 */
import type { EngineErrorKind } from "../errors.js";

export interface EngineMetricsSnapshot {
  /** Successful placements by reason (new, evacuation, relocation, rebalance) and kind. */
  placements: Record<string, number>;
  /** Failed placements by error kind. */
  failures: Partial<Record<EngineErrorKind, number>>;
  scriptletRuns: number;
  scriptletErrors: number;
  scriptletSteps: number;
  /** Claims that lost a race and were re-planned. */
  claimRetries: number;
}

export class EngineMetrics {
  private readonly placements = new Map<string, number>();
  private readonly failures = new Map<EngineErrorKind, number>();
  scriptletRuns = 0;
  scriptletErrors = 0;
  scriptletSteps = 0;
  claimRetries = 0;

  placed(kind: string, count = 1): void {
    this.placements.set(kind, (this.placements.get(kind) ?? 0) + count);
  }

  failed(kind: EngineErrorKind): void {
    this.failures.set(kind, (this.failures.get(kind) ?? 0) + 1);
  }

  scriptletRan(steps: number, rejected: boolean): void {
    this.scriptletRuns += 1;
    this.scriptletSteps += steps;
    if (rejected) this.scriptletErrors += 1;
  }

  snapshot(): EngineMetricsSnapshot {
    return {
      placements: Object.fromEntries(this.placements),
      failures: Object.fromEntries(this.failures),
      scriptletRuns: this.scriptletRuns,
      scriptletErrors: this.scriptletErrors,
      scriptletSteps: this.scriptletSteps,
      claimRetries: this.claimRetries,
    };
  }
}
