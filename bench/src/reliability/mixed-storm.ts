/**
 * A storm of mixed operations: single creates, reservations (`forthcoming`)
 * and all-or-nothing bulk batches, fired by `clients` concurrent loops at
 * whichever servers are alive (a server can be killed mid-way: `servers()`
 * is asked again for every request). Every instance asks for one VCPU.
 */
import type { Berthd } from "../server/berthd.js";
import { postJson } from "./post-json.js";

export type Operation =
  | { kind: "create"; name: string }
  | { kind: "reserve"; name: string }
  | { kind: "bulk"; names: string[] };

export interface MixedOutcome {
  /** HTTP status -> count, per operation kind. */
  statuses: Record<string, Record<number, number>>;
  transportErrors: number;
  /** Error texts of non-2xx answers, with counts. */
  errors: Record<string, number>;
  /** Instances the answers said were placed. */
  placed: number;
  durationMs: number;
  /** 503s answered and sent again (post-json.ts). */
  busyRetries: number;
}

const INSTANCE = { config: { "limits.cpu": "1", "limits.memory": "64MiB" } };

/** `count` operations, one in `bulkEvery` a batch of `batch`, one in `reserveEvery` a reservation, the last `tail` singles. */
export function mixedOperations(
  count: number,
  {
    bulkEvery = 5,
    reserveEvery = 7,
    batch = 5,
    tail = 0,
  }: { bulkEvery?: number; reserveEvery?: number; batch?: number; tail?: number },
): Operation[] {
  const ops: Operation[] = [];
  for (let i = 0; i < count; i++) {
    if (i < count - tail && i % bulkEvery === bulkEvery - 1)
      ops.push({ kind: "bulk", names: Array.from({ length: batch }, (_, k) => `b${i}-${k}`) });
    else if (i < count - tail && i % reserveEvery === reserveEvery - 1)
      ops.push({ kind: "reserve", name: `r${i}` });
    else ops.push({ kind: "create", name: `c${i}` });
  }
  return ops;
}

export async function mixedStorm(
  servers: () => Berthd[],
  operations: readonly Operation[],
  {
    clients,
    onProgress,
    busyRetries = 0,
  }: { clients: number; onProgress?: (done: number) => void; busyRetries?: number },
): Promise<MixedOutcome> {
  let next = 0;
  let done = 0;
  const outcome: MixedOutcome = {
    statuses: {},
    transportErrors: 0,
    errors: {},
    placed: 0,
    durationMs: 0,
    busyRetries: 0,
  };
  const started = performance.now();
  const client = async () => {
    for (;;) {
      const i = next++;
      const op = operations[i];
      if (op === undefined) return;
      const alive = servers();
      const server = alive[i % alive.length]!;
      const [path, body, size] =
        op.kind === "bulk"
          ? [
              "/1.0/instances/bulk",
              { instances: op.names.map((name) => ({ name, ...INSTANCE })) },
              op.names.length,
            ]
          : op.kind === "reserve"
            ? ["/1.0/instances", { name: op.name, forthcoming: true, ...INSTANCE }, 1]
            : ["/1.0/instances", { name: op.name, ...INSTANCE }, 1];
      try {
        const response = await postJson(server, path, body, busyRetries);
        const text = response.text;
        outcome.busyRetries += response.busyRetries;
        const byKind = (outcome.statuses[op.kind] ??= {});
        byKind[response.status] = (byKind[response.status] ?? 0) + 1;
        if (response.status < 300) outcome.placed += size;
        else {
          const message = (JSON.parse(text) as { error?: string }).error ?? text;
          const key = `${op.kind} ${response.status} ${message.replace(/"[^"]*"/g, '"…"').slice(0, 160)}`;
          outcome.errors[key] = (outcome.errors[key] ?? 0) + 1;
        }
      } catch {
        outcome.transportErrors += 1;
      }
      done += 1;
      onProgress?.(done);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  outcome.durationMs = Math.round(performance.now() - started);
  return outcome;
}
