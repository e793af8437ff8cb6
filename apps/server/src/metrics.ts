import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Current usage as the engine sees it, read at scrape time (never maintained twice). */
export interface UsageSample {
  member: string;
  resourceClass: string;
  used: number;
  capacity: number;
}

/** The engine's own counters (placements by reason incl. evacuation/healing/rebalance, scriptlet totals). */
export interface EngineCounters {
  placements: Record<string, number>;
  failures: Partial<Record<string, number>>;
  scriptletRuns: number;
  scriptletErrors: number;
  scriptletSteps: number;
  claimRetries: number;
}

export interface MetricsOptions {
  /** Node process metrics (heap, event loop lag...); off in tests to keep scrapes small. */
  processMetrics?: boolean;
  usage?: () => Promise<UsageSample[]>;
  /** Read at scrape time: the engine counts what happens outside HTTP requests too (healing, evacuation). */
  engine?: () => EngineCounters;
}

/**
 * berthd's Prometheus metrics, on a registry of its own so several servers
 * in one process (tests) never collide.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<"method" | "route" | "status">;
  readonly httpDuration: Histogram<"method" | "route">;
  readonly placements: Counter<"operation">;
  readonly placementFailures: Counter<"operation" | "kind">;
  readonly placementDuration: Histogram<"operation">;
  readonly scriptletRuns: Counter<"outcome">;
  readonly scriptletSteps: Histogram<string>;

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: "berth_" });
    this.httpRequests = new Counter({
      name: "berth_http_requests_total",
      help: "HTTP requests answered, by method, route pattern and status code",
      labelNames: ["method", "route", "status"],
      registers,
    });
    this.httpDuration = new Histogram({
      name: "berth_http_request_duration_seconds",
      help: "HTTP request latency by method and route pattern",
      labelNames: ["method", "route"],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.placements = new Counter({
      name: "berth_placements_total",
      help: "Successful placements by operation (create, dry_run, bulk, reservation, move, commit)",
      labelNames: ["operation"],
      registers,
    });
    this.placementFailures = new Counter({
      name: "berth_placement_failures_total",
      help: "Failed placements by operation and error kind",
      labelNames: ["operation", "kind"],
      registers,
    });
    this.placementDuration = new Histogram({
      name: "berth_placement_duration_seconds",
      help: "Placement latency (engine call, excluding HTTP) by operation",
      labelNames: ["operation"],
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
      registers,
    });
    this.scriptletRuns = new Counter({
      name: "berth_scriptlet_runs_total",
      help: "Placement scriptlet runs by outcome (target, default, rejected, error)",
      labelNames: ["outcome"],
      registers,
    });
    this.scriptletSteps = new Histogram({
      name: "berth_scriptlet_steps",
      help: "Starlark steps executed per scriptlet run",
      buckets: [10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000],
      registers,
    });
    const engine = options.engine;
    if (engine) this.#registerEngineCounters(engine);
    const usage = options.usage;
    if (usage) {
      // Gauges filled on scrape from the engine's model: usage is never tracked twice.
      const labelNames = ["member", "resource_class"] as const;
      // prom-client collects all metrics concurrently: both gauges share one engine read per scrape.
      let inFlight: Promise<UsageSample[]> | undefined;
      const samplesForThisScrape = (): Promise<UsageSample[]> => {
        if (!inFlight) {
          inFlight = usage();
          const clear = () => {
            inFlight = undefined;
          };
          inFlight.then(() => setImmediate(clear), clear);
        }
        return inFlight;
      };
      new Gauge({
        name: "berth_member_resource_used",
        help: "Amount of a resource class used on a member (instances and reservations)",
        labelNames,
        registers,
        async collect() {
          const samples = await samplesForThisScrape();
          this.reset();
          for (const s of samples) this.set({ member: s.member, resource_class: s.resourceClass }, s.used);
        },
      });
      new Gauge({
        name: "berth_member_resource_capacity",
        help: "Capacity of a resource class on a member: (total - reserved) * allocation_ratio",
        labelNames,
        registers,
        async collect() {
          const samples = await samplesForThisScrape();
          this.reset();
          for (const s of samples)
            this.set({ member: s.member, resource_class: s.resourceClass }, s.capacity);
        },
      });
    }
  }

  /** Engine counters exposed as Prometheus counters, refreshed from the engine's snapshot on every scrape. */
  #registerEngineCounters(engine: () => EngineCounters): void {
    const registers = [this.registry];
    const labelled = (
      name: string,
      help: string,
      label: string,
      pick: (c: EngineCounters) => Partial<Record<string, number>>,
    ) =>
      new Counter({
        name,
        help,
        labelNames: [label],
        registers,
        collect() {
          this.reset();
          for (const [key, value] of Object.entries(pick(engine())))
            if (value) this.inc({ [label]: key }, value);
        },
      });
    const single = (name: string, help: string, pick: (c: EngineCounters) => number) =>
      new Counter({
        name,
        help,
        registers,
        collect() {
          this.reset();
          const value = pick(engine());
          if (value > 0) this.inc(value);
        },
      });
    labelled(
      "berth_engine_placements_total",
      "Placements the engine made, by reason and kind (new, evacuation, relocation, rebalance...)",
      "kind",
      (c) => c.placements,
    );
    labelled(
      "berth_engine_placement_failures_total",
      "Failed engine placements by error kind",
      "kind",
      (c) => c.failures,
    );
    single("berth_engine_scriptlet_runs_total", "Placement scriptlet runs", (c) => c.scriptletRuns);
    single(
      "berth_engine_scriptlet_errors_total",
      "Scriptlet runs that rejected or failed",
      (c) => c.scriptletErrors,
    );
    single(
      "berth_engine_scriptlet_steps_total",
      "Starlark steps executed by placement scriptlets",
      (c) => c.scriptletSteps,
    );
    single(
      "berth_engine_claim_retries_total",
      "Claims that lost a race and were re-planned",
      (c) => c.claimRetries,
    );
  }
}
