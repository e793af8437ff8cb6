/**
 * Benchmark: one placement with a scriptlet that reads
 * get_cluster_member_state for every candidate (target: p50 <= 3 ms for
 * 1,000 candidates, <= 15 ms for 10,000). Runs the forum-style
 * most-free-memory scriptlet, reports p50/p90 over repeated runs, and the
 * cost of a trivial scriptlet as the in-run baseline. The call carries what
 * the engine passes with the list (states by position, a candidate test).
 *
 *   npx tsx src/scriptlet/scriptlet.bench.ts [--json]
 */
import { createScriptletHost } from "./host.js";
import { createPlainClusterView } from "./plain-cluster.js";
import type { ClusterMemberStateView, ClusterMemberView, ScriptletCall } from "./port.js";

const MOST_FREE_MEMORY = `
def instance_placement(request, candidate_members):
    best = None
    best_free = -1
    for m in candidate_members:
        state = get_cluster_member_state(m.server_name)
        free = state.sysinfo.free_ram
        if free > best_free:
            best = m.server_name
            best_free = free
    set_target(best)
`;

const TRIVIAL = `
def instance_placement(request, candidate_members):
    set_target(candidate_members[0].server_name)
`;

function clusterOf(size: number): {
  candidates: ClusterMemberView[];
  call: Omit<ScriptletCall, "candidates">;
} {
  const candidates: ClusterMemberView[] = [];
  const states: Record<string, ClusterMemberStateView> = {};
  for (let i = 0; i < size; i++) {
    const name = `member${i}`;
    candidates.push({
      server_name: name,
      url: `https://10.0.${i >> 8}.${i & 255}:8443`,
      status: "Online",
      architecture: "x86_64",
      roles: [],
      config: { "user.rack": `r${i % 40}` },
      groups: ["default"],
    });
    states[name] = {
      sysinfo: {
        uptime: 1000 + i,
        load_averages: [0.5, 0.4, 0.3],
        total_ram: 256 * 2 ** 30,
        free_ram: ((i * 7919) % 1000) * 2 ** 28,
        processes: 300,
        logical_cpus: 64,
      },
      storage_pools: { local: { space: { used: i, total: 2 ** 40 } } },
    };
  }
  // What the engine passes besides the list (candidates/candidate-set.ts): states by position, an O(1) candidate test.
  const names = new Set(candidates.map((member) => member.server_name));
  const candidateStates = candidates.map((member) => states[member.server_name] ?? {});
  return {
    candidates,
    call: {
      candidateState: (index) => candidateStates[index] ?? {},
      isCandidate: (name) => names.has(name),
      request: {
        name: "bench",
        reason: "new",
        project: "default",
        type: "container",
        config: {},
        devices: {},
      },
      instanceResources: { cpu_cores: 1, memory_size: 2 ** 30, root_disk_size: 10 * 2 ** 30 },
      cluster: createPlainClusterView({ members: candidates, states }),
      limits: {
        maxSteps: 50_000_000,
        timeoutMs: 10_000,
        maxStringLength: 1 << 20,
        maxCollectionSize: 1 << 20,
        maxAllocBytes: 1 << 30,
      },
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? Number.NaN;
}

interface Measured {
  p50: number;
  p90: number;
  /** CPU time (user + system) p50: on a shared, loaded machine wall time mostly measures the queue. */
  cpuP50: number;
  steps: number;
}

function measure(source: string, size: number, runs: number): Measured {
  const host = createScriptletHost();
  const { candidates, call } = clusterOf(size);
  const full: ScriptletCall = { ...call, candidates };
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let steps = 0;
  for (let i = 0; i < runs + 5; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = host.run(1, source, full);
    const ms = performance.now() - started;
    const cpuUsed = process.cpuUsage(cpu);
    if (result.outcome.kind !== "target") {
      throw new Error(`unexpected outcome ${JSON.stringify(result.outcome)}`);
    }
    // The first runs warm up the JIT and compile the program.
    if (i >= 5) {
      times.push(ms);
      cpuTimes.push((cpuUsed.user + cpuUsed.system) / 1000);
    }
    steps = result.cost.steps;
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  return {
    p50: percentile(times, 0.5),
    p90: percentile(times, 0.9),
    cpuP50: percentile(cpuTimes, 0.5),
    steps,
  };
}

const rows = [
  {
    name: "most-free-memory, 1,000 candidates",
    source: MOST_FREE_MEMORY,
    size: 1_000,
    runs: 200,
    targetP50: 3,
  },
  {
    name: "most-free-memory, 10,000 candidates",
    source: MOST_FREE_MEMORY,
    size: 10_000,
    runs: 40,
    targetP50: 15,
  },
  {
    name: "trivial (baseline), 1,000 candidates",
    source: TRIVIAL,
    size: 1_000,
    runs: 200,
    targetP50: undefined,
  },
].map((row) => ({ ...row, ...measure(row.source, row.size, row.runs) }));

if (process.argv.includes("--json")) {
  console.log(
    JSON.stringify(
      rows.map(({ name, size, p50, p90, cpuP50, steps, targetP50 }) => ({
        name,
        size,
        p50,
        p90,
        cpuP50,
        steps,
        targetP50,
      })),
    ),
  );
} else {
  for (const r of rows) {
    const target = r.targetP50 === undefined ? "" : ` (target p50 <= ${r.targetP50} ms)`;
    console.log(
      `${r.name.padEnd(40)} p50 ${r.p50.toFixed(3)} ms  p90 ${r.p90.toFixed(3)} ms  cpu p50 ${r.cpuP50.toFixed(3)} ms  ${r.steps} steps${target}`,
    );
  }
}
