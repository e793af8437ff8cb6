/**
 * A storm of creates through several berthd processes while their database
 * fails under them (database-outage tests): every answer is kept with the
 * time it was sent and received, so a test can tell what was answered
 * during the outage (503 with Retry-After, never 500) and how soon after the
 * database came back placement resumed. A 503 is sent again after its
 * Retry-After, as a well-behaved client does, up to `busyRetries` times; a
 * request is bounded by a timeout, the whole storm by its count.
 */
import type { Berthd } from "../server/berthd.js";

export interface OutageAnswer {
  name: string;
  server: number;
  status: number;
  sentAtMs: number;
  answeredAtMs: number;
  retryAfter: string | null;
  error: string;
}

export interface OutageStormOutcome {
  /** Every answer, 503s that were sent again included (performance.now() times). */
  answers: OutageAnswer[];
  /** The last answer for each name. */
  final: Map<string, OutageAnswer>;
  /** Requests that got no HTTP answer at all (a server gone, a timeout). */
  transportErrors: number;
}

export async function outageStorm(
  servers: readonly Berthd[],
  {
    clients,
    total,
    body,
    busyRetries,
    prefix = "c",
    onProgress,
  }: {
    clients: number;
    total: number;
    body: (name: string) => unknown;
    busyRetries: number;
    /** Instance names are `${prefix}${i}`. */
    prefix?: string;
    /** Called after each final answer with how many creates are answered so far. */
    onProgress?: (answered: number) => void;
  },
): Promise<OutageStormOutcome> {
  const outcome: OutageStormOutcome = { answers: [], final: new Map(), transportErrors: 0 };
  let next = 0;
  const send = (index: number, name: string) => sendCreate(servers[index]!, index, name, body(name));
  const client = async () => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const name = `${prefix}${i}`;
      const index = i % servers.length;
      try {
        for (let retried = 0; ; retried++) {
          const answer = await send(index, name);
          outcome.answers.push(answer);
          if (answer.status !== 503 || retried >= busyRetries) {
            outcome.final.set(name, answer);
            break;
          }
          const pause = Math.min(Number(answer.retryAfter ?? "1"), 2);
          await new Promise((resolve) => setTimeout(resolve, (Number.isFinite(pause) ? pause : 1) * 1000));
        }
      } catch {
        outcome.transportErrors += 1;
      }
      onProgress?.(outcome.final.size + outcome.transportErrors);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return outcome;
}

/** Deletes one instance through one server; answers the HTTP status. */
async function deleteInstance(server: Berthd, name: string): Promise<number> {
  const response = await fetch(`${server.url}/1.0/instances/${name}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${server.token}` },
    signal: AbortSignal.timeout(60_000),
  });
  await response.text();
  return response.status;
}

/** One create through one server, and how it was answered. */
async function sendCreate(server: Berthd, index: number, name: string, body: unknown): Promise<OutageAnswer> {
  const sentAtMs = performance.now();
  const response = await fetch(`${server.url}/1.0/instances`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let error = "";
  if (response.status >= 300) {
    try {
      error = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      error = text;
    }
  }
  return {
    name,
    server: index,
    status: response.status,
    sentAtMs,
    answeredAtMs: performance.now(),
    retryAfter: response.headers.get("retry-after"),
    error,
  };
}

/**
 * A short fault (terminated backends) can end after the storm sent its last
 * creates, or once the cluster is full (507s are decided from the model): a
 * server with no 201 for a create sent after `upAtMs` deletes one stored
 * instance and is sent one more create
 * (`probe-N`, again after each 503 as its Retry-After says, for `boundMs` at
 * most), so its resumption is measured rather than missing. The answers join
 * the outcome.
 */
export async function probeResumption(
  servers: readonly Berthd[],
  outcome: OutageStormOutcome,
  upAtMs: number,
  body: (name: string) => unknown,
  boundMs: number,
): Promise<void> {
  const resumed = resumedAfterMs(outcome, servers.length, upAtMs);
  await Promise.all(
    servers.map(async (server, index) => {
      if (Number.isFinite(resumed[index])) return;
      const name = `probe-${index}`;
      const deadline = performance.now() + boundMs;
      // The storm may have filled the cluster (its last creates answered 507, decided from the
      // model): one of its instances goes first, through this server, so the probe has room.
      const room = [...outcome.final.values()].find((answer) => answer.status === 201);
      if (room !== undefined) {
        outcome.final.delete(room.name);
        while ((await deleteInstance(server, room.name)) === 503 && performance.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      for (;;) {
        const answer = await sendCreate(server, index, name, body(name));
        outcome.answers.push(answer);
        if (answer.status !== 503 || performance.now() >= deadline) {
          outcome.final.set(name, answer);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }),
  );
}

/**
 * How long after `upAtMs` each server took to place again: from then to the
 * first 201 of a request it was sent after then (Infinity when none came).
 */
export function resumedAfterMs(outcome: OutageStormOutcome, servers: number, upAtMs: number): number[] {
  return Array.from({ length: servers }, (_, server) => {
    const first = outcome.answers
      .filter((answer) => answer.server === server && answer.status === 201 && answer.sentAtMs >= upAtMs)
      .reduce((min, answer) => Math.min(min, answer.answeredAtMs), Number.POSITIVE_INFINITY);
    return Math.round(first - upAtMs);
  });
}
