import type { HistogramSnapshot } from "@berth/engine";
import { Histogram, type MetricType, type Registry } from "prom-client";

type Labels = Record<string, string>;

export interface SnapshotHistogramConfig {
  name: string;
  help: string;
  labelNames: readonly string[];
  registry: Registry;
  /** The histograms to export, read at scrape time (the engine keeps them; nothing is observed here). */
  read(): { labels: Labels; histogram: HistogramSnapshot }[];
}

/**
 * A Prometheus histogram whose buckets are kept elsewhere (the engine's
 * `HistogramSnapshot`s) and handed on unchanged at each scrape. prom-client
 * histograms only learn through `observe()`, so this one answers the
 * registry's read with the snapshot in prom-client's own value layout
 * (cumulative `_bucket` per `le`, `+Inf`, `_sum`, `_count`); the registry
 * formats it like any other histogram. The metrics test parses the result.
 */
export class SnapshotHistogram extends Histogram<string> {
  readonly #read: SnapshotHistogramConfig["read"];
  readonly #name: string;
  readonly #help: string;

  constructor(config: SnapshotHistogramConfig) {
    super({ name: config.name, help: config.help, labelNames: [...config.labelNames], registers: [] });
    this.#read = config.read;
    this.#name = config.name;
    this.#help = config.help;
    config.registry.registerMetric(this);
  }

  override async get(): ReturnType<Histogram<string>["get"]> {
    const values: { labels: Labels; value: number; metricName: string }[] = [];
    for (const { labels, histogram } of this.#read()) {
      histogram.buckets.forEach((bound, i) => {
        values.push({
          labels: { ...labels, le: String(bound) },
          value: histogram.counts[i] ?? 0,
          metricName: `${this.#name}_bucket`,
        });
      });
      const name = this.#name;
      values.push({
        labels: { ...labels, le: "+Inf" },
        value: histogram.count,
        metricName: `${name}_bucket`,
      });
      values.push({ labels, value: histogram.sum, metricName: `${name}_sum` });
      values.push({ labels, value: histogram.count, metricName: `${name}_count` });
    }
    // The registry writes `type` as text ("# TYPE ... histogram"); the typings call it an enum.
    const type = "histogram" as unknown as MetricType;
    return { name: this.#name, help: this.#help, type, aggregator: "sum", collect: () => undefined, values };
  }

  /** The registry renders text from this method when a metric has it (prom-client 15); same values. */
  getForPromString() {
    return this.get();
  }
}
