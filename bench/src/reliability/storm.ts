/**
 * The overcommit storm: `clients` concurrent loops share one counter and fire
 * `total` creates (each with a unique name) at one or more berthd processes,
 * round-robin by request. Bounded by count, and every request by a timeout.
 */
import type { Berthd } from "../server/berthd.js";
import { postJson } from "./post-json.js";

export interface StormOutcome {
  requests: number;
  /** HTTP status -> how many answers had it. */
  statuses: Record<number, number>;
  /** Requests that got no HTTP answer at all (connection reset, timeout). */
  transportErrors: number;
  durationMs: number;
  /** Distinct error texts of non-2xx answers, with counts. */
  errors: Record<string, number>;
  /** 503s answered and sent again (only with `busyRetries`). */
  busyRetries: number;
}

export async function storm(
  servers: Berthd[],
  {
    clients,
    total,
    body,
    busyRetries = 0,
  }: {
    clients: number;
    total: number;
    body: (i: number) => unknown;
    /** Send a request that got 503 (with Retry-After) again, up to this many times (post-json.ts). */
    busyRetries?: number;
  },
): Promise<StormOutcome> {
  let next = 0;
  const outcome: StormOutcome = {
    requests: 0,
    statuses: {},
    transportErrors: 0,
    durationMs: 0,
    errors: {},
    busyRetries: 0,
  };
  const started = performance.now();
  const client = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const server = servers[i % servers.length]!;
      outcome.requests += 1;
      try {
        const response = await postJson(server, "/1.0/instances", body(i), busyRetries);
        const text = response.text;
        outcome.busyRetries += response.busyRetries;
        outcome.statuses[response.status] = (outcome.statuses[response.status] ?? 0) + 1;
        if (response.status >= 300) {
          const message = (JSON.parse(text) as { error?: string }).error ?? text;
          // Member names vary per answer; the kind of error is what we count.
          const key = `${response.status} ${message.replace(/"[^"]*"/g, '"…"').slice(0, 160)}`;
          outcome.errors[key] = (outcome.errors[key] ?? 0) + 1;
        }
      } catch {
        outcome.transportErrors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  outcome.durationMs = Math.round(performance.now() - started);
  return outcome;
}
