import type { EngineMetricsSnapshot, HistogramSnapshot } from "@berth/engine";
import { Counter, type Registry } from "prom-client";
import { SnapshotHistogram } from "./snapshot-histogram.js";

/**
 * The engine's counts (engine.metrics()) as Prometheus series, read at
 * scrape time. berthd counts no placement itself: placements made outside
 * requests (evacuation, healing, rebalance) and inside them are one count,
 * kept by the engine, so each series exists once.
 */
export function registerEngineMetrics(registry: Registry, read: () => EngineMetricsSnapshot): void {
  const registers = [registry];
  /** A counter per label set, set from the snapshot on every scrape. */
  const counter = (
    name: string,
    help: string,
    labelNames: string[],
    rows: (snapshot: EngineMetricsSnapshot) => [Record<string, string>, number][],
  ) =>
    new Counter({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const [labels, value] of rows(read())) if (value > 0) this.inc(labels, value);
      },
    });

  counter(
    "berth_placements_total",
    "Instances placed by operation (create, reservation, bulk, move, commit, evacuation, relocation, rebalance, automatic_rebalance; dry_run: decisions)",
    ["operation"],
    (s) => Object.entries(s.placements).map(([operation, n]) => [{ operation }, n ?? 0]),
  );
  counter(
    "berth_placement_failures_total",
    "Placement operations that failed, by operation and engine error kind",
    ["operation", "kind"],
    (s) =>
      Object.entries(s.failures).flatMap(([operation, byKind]) =>
        Object.entries(byKind ?? {}).map(([kind, n]): [Record<string, string>, number] => [
          { operation, kind },
          n ?? 0,
        ]),
      ),
  );
  new SnapshotHistogram({
    name: "berth_placement_duration_seconds",
    help: "Time the engine took per placement operation (excluding HTTP), by operation",
    labelNames: ["operation"],
    registry,
    read: () =>
      Object.entries(read().durations).flatMap(([operation, histogram]) =>
        histogram === undefined ? [] : [{ labels: { operation }, histogram }],
      ),
  });
  counter(
    "berth_scriptlet_runs_total",
    "Placement scriptlet runs by outcome (target: it set one, default: left it to the default policy, rejected: refused or failed)",
    ["outcome"],
    (s) => Object.entries(s.scriptletRuns).map(([outcome, n]) => [{ outcome }, n ?? 0]),
  );
  new SnapshotHistogram({
    name: "berth_scriptlet_steps",
    help: "Starlark steps executed per placement scriptlet run",
    labelNames: [],
    registry,
    read: (): { labels: Record<string, string>; histogram: HistogramSnapshot }[] => [
      { labels: {}, histogram: read().scriptletSteps },
    ],
  });
  counter("berth_claim_retries_total", "Claims that lost a race and were re-planned", [], (s) => [
    [{}, s.claimRetries],
  ]);
}
