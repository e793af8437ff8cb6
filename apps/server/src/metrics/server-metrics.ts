import type { EngineMetricsSnapshot } from "@berth/engine";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { registerEngineMetrics } from "./engine-metrics.js";

/** Current usage as the engine sees it, read at scrape time (never maintained twice). */
export interface UsageSample {
  member: string;
  resourceClass: string;
  used: number;
  capacity: number;
}

export interface MetricsOptions {
  /** Node process metrics (heap, event loop lag...); off in tests to keep scrapes small. */
  processMetrics?: boolean;
  usage?: () => Promise<UsageSample[]>;
  /** The engine's counts (`engine.metrics()`), read at scrape time: placements are counted there only. */
  engine?: () => EngineMetricsSnapshot;
}

/**
 * berthd's Prometheus metrics, on a registry of its own so several servers
 * in one process (tests) never collide. berthd counts only what is its
 * own (HTTP requests and their latency); placements, failures, scriptlet
 * runs and claim retries are the engine's counts, exported as read.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<"method" | "route" | "status">;
  readonly httpDuration: Histogram<"method" | "route">;

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
    if (options.engine) registerEngineMetrics(this.registry, options.engine);
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
}
