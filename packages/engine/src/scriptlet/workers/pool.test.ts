/**
 * The worker pool's own promises: the event loop stays free while a
 * scriptlet runs, a worker that dies (heap limit) or overruns its deadline
 * fails only its own run with a text naming the cause and is replaced, log
 * lines reach the server logger as they are written, and the member mirror
 * follows changes between runs.
 */
import { afterEach, describe, expect, it } from "vitest";
import { TEST_SCRIPTLET_LIMITS } from "../../testing/scriptlet-limits.fixture.js";
import { createPlainClusterView } from "../plain-cluster.js";
import type { ClusterMemberView, ScriptletCall, ScriptletLogger } from "../port.js";
import { createScriptletWorkerPool, type ScriptletWorkerPool } from "./pool.js";

const RUNAWAY = `def instance_placement(request, candidate_members):
    n = 0
    for i in range(1000000000):
        n += i
`;

/** Every list stays under the per-value caps and the run's budget is large: only the heap limit stops it. */
const HEAP_BOMB = `def instance_placement(request, candidate_members):
    keep = []
    for i in range(1000000):
        keep.append([i] * 100000)
`;

const STATE_READER = `def instance_placement(request, candidate_members):
    for c in candidate_members:
        log_info(c.server_name, " free=", get_cluster_member_state(c.server_name).sysinfo.free_ram)
    set_target(candidate_members[-1].server_name)
`;

const member = (name: string): ClusterMemberView => ({ server_name: name, status: "Online" });

function callWith(
  states: Record<string, number>,
  limits: Partial<ScriptletCall["limits"]> = {},
): ScriptletCall {
  const names = Object.keys(states);
  const cluster = createPlainClusterView({
    members: names.map(member),
    states: Object.fromEntries(names.map((name) => [name, { sysinfo: { free_ram: states[name] } }])),
  });
  return {
    request: { name: "web", project: "default", reason: "new" },
    candidates: names.map(member),
    instanceResources: { cpu_cores: 0, memory_size: 0, root_disk_size: 0 },
    cluster,
    limits: { ...TEST_SCRIPTLET_LIMITS, ...limits },
  };
}

let pool: ScriptletWorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe("the scriptlet worker pool", () => {
  it("keeps the event loop free while a scriptlet runs away, and words its end as the interpreter does", async () => {
    pool = createScriptletWorkerPool({ size: 1 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      const result = await pool.run(null, RUNAWAY, callWith({ a: 1 }, { timeoutMs: 800, maxSteps: 1e12 }));
      expect(result.outcome).toEqual({
        kind: "rejected",
        message:
          "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: deadline exceeded",
      });
    } finally {
      clearInterval(timer);
    }
    // On the caller's thread not one tick would fire during the run.
    expect(ticks).toBeGreaterThan(5);
  });

  it("replaces a worker killed by its heap limit; the run fails naming why and the next one works", async () => {
    const replaced: string[] = [];
    pool = createScriptletWorkerPool({ size: 1, heapMb: 48, onReplaced: (reason) => replaced.push(reason) });
    const bomb = await pool.run(
      null,
      HEAP_BOMB,
      callWith(
        { a: 1 },
        { maxAllocBytes: 1 << 30, maxCollectionSize: 1 << 20, maxSteps: 1e12, timeoutMs: 60_000 },
      ),
    );
    expect(bomb.outcome).toEqual({
      kind: "rejected",
      message:
        "Failed instance placement scriptlet: Failed to run: the scriptlet's worker thread stopped: it ran out of memory (heap limit 48 MiB, from instances.placement.scriptlet.max_memory); it was replaced",
    });
    expect(pool.replaced).toBe(1);
    expect(replaced[0]).toMatch(/^scriptlet worker died: it ran out of memory/);
    const after = await pool.run(null, STATE_READER, callWith({ a: 1, b: 2 }));
    expect(after.outcome).toEqual({ kind: "target", member: "b" });
  });

  it("terminates a worker that overruns its deadline (the watchdog) with the deadline's text", async () => {
    // A negative grace makes the watchdog fire before the interpreter's own deadline check.
    pool = createScriptletWorkerPool({ size: 1, graceMs: -1_500 });
    const result = await pool.run(null, RUNAWAY, callWith({ a: 1 }, { timeoutMs: 2_000, maxSteps: 1e12 }));
    expect(result.outcome).toEqual({
      kind: "rejected",
      message:
        "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: deadline exceeded",
    });
    expect(result.cost.ms).toBeLessThan(2_000);
    expect(pool.replaced).toBe(1);
  });

  it("forwards log lines to the logger with the request's instance, project and reason", async () => {
    pool = createScriptletWorkerPool({ size: 1 });
    const lines: Parameters<ScriptletLogger["log"]>[0][] = [];
    const result = await pool.run(null, STATE_READER, callWith({ a: 10, b: 20 }), {
      log: (line) => lines.push(line),
    });
    expect(result.logs.map((line) => line.message)).toEqual(["a free=10", "b free=20"]);
    expect(lines).toEqual([
      { level: "info", message: "a free=10", instance: "web", project: "default", reason: "new" },
      { level: "info", message: "b free=20", instance: "web", project: "default", reason: "new" },
    ]);
  });

  it("sends only changed members: a changed state is seen, an unchanged one is kept", async () => {
    pool = createScriptletWorkerPool({ size: 1 });
    const first = callWith({ a: 1, b: 2 });
    expect((await pool.run(7, STATE_READER, first)).logs.map((l) => l.message)).toEqual([
      "a free=1",
      "b free=2",
    ]);
    // Same views, a new state object for b only (as the model replaces a record on change).
    const second: ScriptletCall = {
      ...first,
      cluster: createPlainClusterView({
        members: first.candidates,
        states: { a: first.cluster.memberState("a")!, b: { sysinfo: { free_ram: 99 } } },
      }),
    };
    expect((await pool.run(7, STATE_READER, second)).logs.map((l) => l.message)).toEqual([
      "a free=1",
      "b free=99",
    ]);
  });

  it("stops a run when its caller's signal aborts, with the interpreter's text, and reuses the worker", async () => {
    const replaced: string[] = [];
    pool = createScriptletWorkerPool({ size: 1, onReplaced: (reason) => replaced.push(reason) });
    // A warm worker first, so the abort lands in a running scriptlet, not in the worker's start-up.
    expect((await pool.run(null, STATE_READER, callWith({ a: 1, b: 2 }))).outcome.kind).toBe("target");
    const controller = new AbortController();
    const started = performance.now();
    const running = pool.run(null, RUNAWAY, {
      ...callWith({ a: 1 }, { timeoutMs: 10_000, maxSteps: 1e12 }),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    const result = await running;
    expect(result.outcome).toEqual({
      kind: "rejected",
      message: "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: aborted",
    });
    // Without the signal the run would have lasted until its 10 s deadline.
    expect(performance.now() - started).toBeLessThan(9_000);
    // The worker stopped the run itself: nothing was terminated, and the same worker serves on.
    const after = await pool.run(null, STATE_READER, callWith({ a: 1, b: 2 }));
    expect(after.outcome).toEqual({ kind: "target", member: "b" });
    expect(pool.replaced).toBe(0);
    expect(replaced).toEqual([]);
  });

  it("answers a run whose signal aborted before it started without running it, queued or not", async () => {
    pool = createScriptletWorkerPool({ size: 1 });
    const lines: string[] = [];
    const logger: ScriptletLogger = { log: (line) => lines.push(line.message) };
    const already = await pool.run(
      null,
      STATE_READER,
      { ...callWith({ a: 1 }), signal: AbortSignal.abort() },
      logger,
    );
    expect(already.outcome).toEqual({
      kind: "rejected",
      message: "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: aborted",
    });
    // One worker, busy with a runaway: the second run waits in the queue and is dropped there.
    const busy = new AbortController();
    const first = pool.run(null, RUNAWAY, {
      ...callWith({ a: 1 }, { timeoutMs: 10_000, maxSteps: 1e12 }),
      signal: busy.signal,
    });
    const queued = new AbortController();
    const second = pool.run(null, STATE_READER, { ...callWith({ a: 1 }), signal: queued.signal }, logger);
    queued.abort();
    expect((await second).outcome.kind).toBe("rejected");
    busy.abort();
    expect((await first).outcome.kind).toBe("rejected");
    expect(lines).toEqual([]);
    expect((await pool.run(null, STATE_READER, callWith({ a: 3 }), logger)).outcome).toEqual({
      kind: "target",
      member: "a",
    });
    expect(lines).toEqual(["a free=3"]);
  });

  it("never shows a scriptlet a member deleted since an earlier run, nor an old record under a reused name", async () => {
    pool = createScriptletWorkerPool({ size: 1 });
    const ASKS_B = `def instance_placement(request, candidate_members):
    log_info([c.server_name for c in candidate_members], " ", get_cluster_member_state("b").sysinfo.free_ram)
`;
    expect((await pool.run(null, ASKS_B, callWith({ a: 1, b: 2 }))).logs.map((l) => l.message)).toEqual([
      '["a", "b"] 2',
    ]);
    const gone = await pool.run(null, ASKS_B, callWith({ a: 1 }));
    expect(gone.outcome).toEqual({
      kind: "rejected",
      message: "Failed instance placement scriptlet: Failed to run: Invalid member name: b",
    });
    // A new member named b is a new record: its own state, not the deleted one's.
    expect((await pool.run(null, ASKS_B, callWith({ a: 1, b: 7 }))).logs.map((l) => l.message)).toEqual([
      '["a", "b"] 7',
    ]);
  });

  it("validates with the host's texts", async () => {
    pool = createScriptletWorkerPool({ size: 1 });
    await expect(pool.validate("def instance_placement(:\n")).rejects.toMatchObject({ kind: "invalid" });
    await expect(pool.validate(STATE_READER)).resolves.toBeUndefined();
  });
});
