/**
 * What the engine counts, counted once and only here: every protocol that
 * drives the engine (berthd's HTTP API today) exports these numbers, it
 * never counts placements itself. Plain numbers, no metrics library: the
 * histograms keep fixed buckets so an exporter can hand them on unchanged.
 */
import type { EngineError, EngineErrorKind } from "../base/errors.js";
import type { ScriptletOutcome } from "../scriptlet/port.js";

/**
 * What a placement-making operation was: a create (`reservation` when
 * forthcoming), a bulk create, a dry run (decides, claims nothing), a move,
 * the commit of a reservation, an evacuation, healing of an offline member
 * (`relocation`), a rebalance or a run of automatic rebalancing
 * (`automatic_rebalance`: one observation per run, its moves as placed).
 */
export type PlacementOperation =
  | "create"
  | "reservation"
  | "bulk"
  | "dry_run"
  | "move"
  | "commit"
  | "evacuation"
  | "relocation"
  | "rebalance"
  | "automatic_rebalance";

/**
 * How a scriptlet run ended: it set a target, left it to the default policy, or rejected the
 * placement.
 */
export type ScriptletRunOutcome = ScriptletOutcome["kind"];

/** Upper bounds of the placement latency buckets, in seconds. */
export const PLACEMENT_SECONDS_BUCKETS: readonly number[] = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1,
];
/** Upper bounds of the Starlark steps-per-run buckets. */
export const SCRIPTLET_STEPS_BUCKETS: readonly number[] = [
  10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000,
];

/** A histogram: `counts[i]` observations were <= `buckets[i]` (cumulative), `count` in all. */
export interface HistogramSnapshot {
  /** Upper bounds, ascending. */
  buckets: readonly number[];
  /** Observations at or below each bound (cumulative). */
  counts: number[];
  /** The sum of every observation. */
  sum: number;
  /** Observations in all. */
  count: number;
}

/**
 * The engine's counters at one moment (`engine.metrics()`): the only count of placements,
 * failures, their durations and scriptlet runs, for exporters.
 */
export interface EngineMetricsSnapshot {
  /** Instances placed (a dry run: decisions made) by operation; a bulk of 10 counts 10. */
  placements: Partial<Record<PlacementOperation, number>>;
  /** Failed operations by operation and error kind (a dry run whose decision was "rejected" counts here). */
  failures: Partial<Record<PlacementOperation, Partial<Record<EngineErrorKind, number>>>>;
  /** Time each operation took in the engine (seconds; one observation per call, successful or not). */
  durations: Partial<Record<PlacementOperation, HistogramSnapshot>>;
  /** Scriptlet runs by outcome: it set a target, left it to the default policy, or rejected/failed. */
  scriptletRuns: Partial<Record<ScriptletRunOutcome, number>>;
  /** Starlark steps per scriptlet run. */
  scriptletSteps: HistogramSnapshot;
  /** Claims that lost a race and were re-planned. */
  claimRetries: number;
}

class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  constructor(private readonly buckets: readonly number[]) {
    this.counts = buckets.map(() => 0);
  }

  observe(value: number): void {
    this.sum += value;
    this.count += 1;
    for (let i = this.buckets.length - 1; i >= 0 && value <= this.buckets[i]!; i--) this.counts[i]! += 1;
  }

  snapshot(): HistogramSnapshot {
    return { buckets: this.buckets, counts: [...this.counts], sum: this.sum, count: this.count };
  }
}

function add<K extends string>(map: Map<K, number>, key: K, count: number): void {
  map.set(key, (map.get(key) ?? 0) + count);
}

export class EngineMetrics {
  private readonly placements = new Map<PlacementOperation, number>();
  private readonly failures = new Map<PlacementOperation, Map<EngineErrorKind, number>>();
  private readonly durations = new Map<PlacementOperation, Histogram>();
  private readonly scriptletRuns = new Map<ScriptletRunOutcome, number>();
  private readonly scriptletSteps = new Histogram(SCRIPTLET_STEPS_BUCKETS);
  claimRetries = 0;
  /**
   * Told the error of every operation a scriptlet failed (the engine's
   * warnings raise LXD's "scriptlet failed" warning from it).
   */
  onScriptletFailure: ((error: EngineError) => void) | undefined;

  placed(operation: PlacementOperation, count: number, seconds: number): void {
    add(this.placements, operation, count);
    this.timed(operation, seconds);
  }

  failed(operation: PlacementOperation, kind: EngineErrorKind, seconds: number, error?: EngineError): void {
    if (kind === "scriptlet" && error !== undefined) this.onScriptletFailure?.(error);
    let byKind = this.failures.get(operation);
    if (byKind === undefined) this.failures.set(operation, (byKind = new Map()));
    add(byKind, kind, 1);
    this.timed(operation, seconds);
  }

  scriptletRan(outcome: ScriptletRunOutcome, steps: number): void {
    add(this.scriptletRuns, outcome, 1);
    this.scriptletSteps.observe(steps);
  }

  snapshot(): EngineMetricsSnapshot {
    const failures: EngineMetricsSnapshot["failures"] = {};
    for (const [operation, byKind] of this.failures) failures[operation] = Object.fromEntries(byKind);
    const durations: EngineMetricsSnapshot["durations"] = {};
    for (const [operation, histogram] of this.durations) durations[operation] = histogram.snapshot();
    return {
      placements: Object.fromEntries(this.placements),
      failures,
      durations,
      scriptletRuns: Object.fromEntries(this.scriptletRuns),
      scriptletSteps: this.scriptletSteps.snapshot(),
      claimRetries: this.claimRetries,
    };
  }

  private timed(operation: PlacementOperation, seconds: number): void {
    let histogram = this.durations.get(operation);
    if (histogram === undefined)
      this.durations.set(operation, (histogram = new Histogram(PLACEMENT_SECONDS_BUCKETS)));
    histogram.observe(seconds);
  }
}
