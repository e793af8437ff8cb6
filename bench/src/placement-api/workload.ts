/**
 * The requests of the Placement kit's performance anchor
 * (../shared/placement-gabbits/perf-setup.py, README "Performance anchor"),
 * the same for every service: PROVIDERS providers with VCPU 64,
 * MEMORY_MB 262144, DISK_GB 2000; CONSUMERS consumers holding VCPU 2 /
 * MEMORY_MB 4096 / DISK_GB 40 each on one provider (round robin), written
 * with POST /allocations in batches of 50; then one request at a time:
 * candidates with limit=1, candidates without limit, and claims of a new
 * consumer on a different candidate each time.
 */
import { randomUUID } from "node:crypto";
import { timeEach, timeEachAgainst } from "../measure/timing.js";
import type { PlacementClient } from "./client.js";

const RESOURCES = { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 40 };
const INVENTORY = { VCPU: 64, MEMORY_MB: 262144, DISK_GB: 2000 };
/** The candidates query of every request the bench times. */
export const QUERY = "resources=VCPU:2,MEMORY_MB:4096,DISK_GB:40";
const BATCH = 50;

export interface Setup {
  providers: string[];
  /** Wall time of each provider's creation (POST + PUT inventories), ms, in order. */
  providerMs: number[];
  consumersMs: number;
}

export async function createData(
  client: PlacementClient,
  providers: number,
  consumers: number,
): Promise<Setup> {
  const uuids: string[] = [];
  const providerMs = await timeEach(providers, async (i) => {
    const created = (await client.must(
      "POST",
      "/resource_providers",
      { name: `perf-cn-${String(i).padStart(4, "0")}`, uuid: randomUUID() },
      [200],
    )) as { uuid: string; generation: number };
    await client.must(
      "PUT",
      `/resource_providers/${created.uuid}/inventories`,
      {
        resource_provider_generation: created.generation,
        inventories: Object.fromEntries(Object.entries(INVENTORY).map(([rc, total]) => [rc, { total }])),
      },
      [200],
    );
    uuids.push(created.uuid);
  });
  const started = performance.now();
  let body: Record<string, unknown> = {};
  for (let i = 0; i < consumers; i++) {
    body[randomUUID()] = {
      allocations: { [uuids[i % providers] as string]: { resources: RESOURCES } },
      project_id: `perf-project-${String(i % 50).padStart(2, "0")}`,
      user_id: `perf-user-${String(i % 100).padStart(3, "0")}`,
      consumer_generation: null,
      consumer_type: "INSTANCE",
    };
    if (Object.keys(body).length === BATCH || i === consumers - 1) {
      await client.must("POST", "/allocations", body, [204]);
      body = {};
    }
  }
  return { providers: uuids, providerMs, consumersMs: performance.now() - started };
}

export interface Timings {
  limitOne: number[];
  all: number[];
  claim: number[];
  /** Candidates the unlimited request answered. */
  candidates: number;
  /** The server's CPU time of each call of each request, ms (where the bench can read it: berthd). */
  cpu?: { limitOne: number[]; all: number[]; claim: number[] };
}

interface CandidatesAnswer {
  allocation_requests: { allocations: Record<string, { resources: Record<string, number> }> }[];
}

/**
 * The three requests, `calls` times each. `serverCpuMs` (the server's CPU
 * time so far, ms) adds each call's CPU time: on a loaded machine wall time
 * mostly measures waiting for a core.
 */
export async function measure(
  client: PlacementClient,
  calls: number,
  serverCpuMs?: () => number,
): Promise<Timings> {
  const clock = serverCpuMs ?? (() => 0);
  const limitOne = await timeEachAgainst(
    calls,
    () => client.mustText("GET", `/allocation_candidates?${QUERY}&limit=1`, undefined, [200]),
    clock,
  );
  let answer = "";
  const all = await timeEachAgainst(
    calls,
    async () => {
      answer = await client.mustText("GET", `/allocation_candidates?${QUERY}`, undefined, [200]);
    },
    clock,
  );
  const requests = answer === "" ? [] : (JSON.parse(answer) as CandidatesAnswer).allocation_requests;
  if (requests.length === 0) throw new Error(`${client.label}: no allocation candidates`);
  const claim = await timeEachAgainst(
    calls,
    (i) =>
      client.must(
        "PUT",
        `/allocations/${randomUUID()}`,
        {
          // A different candidate each time, so claims never run out of room.
          allocations: requests[i % requests.length]!.allocations,
          project_id: "perf-project-claim",
          user_id: "perf-user-claim",
          consumer_generation: null,
          consumer_type: "INSTANCE",
        },
        [204],
      ),
    clock,
  );
  const cpu =
    serverCpuMs === undefined ? undefined : { limitOne: limitOne.clock, all: all.clock, claim: claim.clock };
  return {
    limitOne: limitOne.wall,
    all: all.wall,
    claim: claim.wall,
    candidates: requests.length,
    ...(cpu === undefined ? {} : { cpu }),
  };
}
