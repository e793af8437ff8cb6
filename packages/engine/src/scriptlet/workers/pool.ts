/**
 * Scriptlets off the event loop: a pool of worker threads, each running the
 * synchronous host (worker-main.ts) under V8 `resourceLimits`. The main
 * thread keeps serving (health, reads, heartbeats) while a scriptlet runs;
 * a run that outlives its deadline by `graceMs` (the interpreter missed it:
 * a bug) is cut off by terminating its worker, and a worker that dies (its
 * heap limit reached because the allocation budget missed something, or any
 * crash) fails only its own run. Either way the worker is replaced and the
 * server lives.
 *
 * Heap limit: derived from the run's allocation budget
 * (`instances.placement.scriptlet.max_memory`): twice the budget (JS
 * representations cost more than the bytes counted) plus room for the
 * member mirror, unless fixed by `heapMb`. A run whose budget needs more
 * than a worker was started with gets a fresh worker.
 *
 * Cancelling: a run's `call.signal` (the HTTP client went away) is passed
 * on through the worker's shared flag, which the interpreter reads as its
 * abort signal: the run stops at its next check with the interpreter's own
 * text and the worker takes the next run. The caller is answered at once
 * with that text (a queued run never starts); a run that does not stop
 * within `graceMs` has its worker terminated and replaced, as at a deadline
 * overrun.
 */
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import { EngineError } from "../../base/errors.js";
import { VALIDATION_LIMITS } from "../host.js";
import { failedToRun } from "../messages.js";
import { needsMemberResources } from "../needs.js";
import type {
  ScriptletCall,
  ScriptletLimits,
  ScriptletLogger,
  ScriptletLogLine,
  ScriptletResult,
  ScriptletRunner,
} from "../port.js";
import { workerEntry } from "./entry.js";
import { MirrorSender } from "./member-mirror.js";
import {
  FLAG_ABORT,
  FLAG_BYTES,
  FLAG_REPLY,
  type FromWorker,
  fromThrown,
  type RpcReply,
  type RpcRequest,
  type ToWorker,
  toThrown,
  type WorkerSetup,
} from "./protocol.js";

/** Tuning of `createScriptletWorkerPool`. */
export interface ScriptletPoolOptions {
  /** Worker threads (default 2): placements run one at a time, dry runs and checks beside them. */
  size?: number;
  /** Fixed heap limit of each worker, MiB (default: derived from each run's allocation budget). */
  heapMb?: number;
  /** How long past a run's own deadline the pool waits before terminating its worker (default 1,000 ms). */
  graceMs?: number;
  /** Characters of log output kept per run (the host's default when unset). */
  logBudget?: number;
  /** Told when a worker is replaced, and why (berthd logs it). */
  onReplaced?: (reason: string) => void;
}

/** The text the interpreter gives a run stopped at its deadline; the watchdog says the same. */
const DEADLINE_EXCEEDED = "Starlark computation cancelled: deadline exceeded";
/** The text the interpreter gives a run whose signal aborted; a run cancelled before it starts says the same. */
const ABORTED = "Starlark computation cancelled: aborted";
const MIB = 1024 * 1024;
/** Heap beyond twice the allocation budget: the host, the compiled programs, the member mirror. */
const HEAP_HEADROOM_MB = 128;
/** How long a new worker may take to load its code, however loaded the machine. */
const STARTUP_MS = 60_000;

/**
 * A worker's V8 heap limit for runs with these limits: twice the allocation budget plus headroom,
 * so a run past its budget fails the run, not the process.
 */
export function heapLimitMb(limits: ScriptletLimits): number {
  return Math.ceil((2 * limits.maxAllocBytes) / MIB) + HEAP_HEADROOM_MB;
}

interface Job {
  id: number;
  message: ToWorker;
  heapMb: number;
  /** Its own deadline; the watchdog fires graceMs later. */
  timeoutMs: number;
  call?: ScriptletCall;
  logger?: ScriptletLogger;
  logs: ScriptletLogLine[];
  startedMs: number;
  /** Removes the job's abort listener (set while a run with a signal is queued or running). */
  unlisten?: () => void;
  /** Answered already (a cancelled run, before its worker reports). */
  settled?: boolean;
  settle(outcome: { result?: ScriptletResult; error?: unknown }): void;
}

class PoolWorker {
  readonly sender = new MirrorSender();
  readonly worker: Worker;
  readonly rpc: MessagePort;
  /** [FLAG_REPLY] is 1 once the main thread has answered an rpc; [FLAG_ABORT] is 1 once the running job is cancelled. */
  readonly flag: Int32Array;
  job: Job | undefined;
  /** The worker has loaded its code (posted "ready"). */
  ready = false;
  /** Bounds the start-up: a worker that never gets ready is replaced. */
  startup: NodeJS.Timeout | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Terminated on purpose or dead: its events no longer matter. */
  retired = false;

  constructor(
    readonly heapMb: number,
    logBudget: number | undefined,
  ) {
    const channel = new MessageChannel();
    const flag = new SharedArrayBuffer(FLAG_BYTES);
    this.flag = new Int32Array(flag);
    this.rpc = channel.port1;
    const setup: WorkerSetup = {
      rpc: channel.port2,
      flag,
      ...(logBudget === undefined ? {} : { logBudget }),
    };
    const entry = workerEntry();
    this.worker = new Worker(entry.url, {
      workerData: setup,
      transferList: [channel.port2],
      execArgv: entry.execArgv,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      // The scriptlet's output reaches the server log through the host's logger, never stdout.
      stdout: true,
      stderr: true,
    });
    this.worker.unref();
    this.rpc.unref();
  }
}

export interface ScriptletWorkerPool extends ScriptletRunner {
  /** Workers replaced after a failure so far (deadline overruns, deaths). */
  readonly replaced: number;
}

/**
 * A `ScriptletRunner` on worker threads (what berthd uses): runs scriptlets off the event loop,
 * each worker with a heap limit, a watchdog past each run's deadline and a fresh worker after a
 * failure. `engine.close()` stops it.
 */
export function createScriptletWorkerPool(options: ScriptletPoolOptions = {}): ScriptletWorkerPool {
  const size = Math.max(1, options.size ?? 2);
  const graceMs = options.graceMs ?? 1_000;
  const workers: (PoolWorker | undefined)[] = new Array(size).fill(undefined);
  const queue: Job[] = [];
  let nextId = 1;
  let replaced = 0;
  let closed = false;
  let largestHeapMb = 0;

  function spawn(index: number, heapMb: number): PoolWorker {
    const pw = new PoolWorker(heapMb, options.logBudget);
    workers[index] = pw;
    pw.worker.on("message", (message: FromWorker) => onMessage(index, pw, message));
    pw.worker.on("error", (error) => onDeath(index, pw, describeDeath(error, pw.heapMb)));
    pw.worker.on("exit", (code) => onDeath(index, pw, `its worker thread exited (code ${code})`));
    pw.rpc.on("message", (request: RpcRequest) => answer(pw, request));
    pw.startup = setTimeout(
      () => onDeath(index, pw, `it did not start within ${STARTUP_MS / 1000} s`),
      STARTUP_MS,
    );
    pw.startup.unref();
    // The worker's own output (there should be none) is drained, not left to fill a buffer.
    pw.worker.stdout.resume();
    pw.worker.stderr.resume();
    return pw;
  }

  /** Stops a worker; `failure` says why when it failed (counted and reported), undefined when it is only outgrown. */
  function retire(index: number, pw: PoolWorker, failure: string | undefined): void {
    if (pw.retired) return;
    pw.retired = true;
    if (pw.timer !== undefined) clearTimeout(pw.timer);
    clearTimeout(pw.startup);
    pw.rpc.close();
    void pw.worker.terminate();
    if (workers[index] === pw) workers[index] = undefined;
    if (failure === undefined) return;
    replaced++;
    options.onReplaced?.(failure);
  }

  function onMessage(index: number, pw: PoolWorker, message: FromWorker): void {
    const job = pw.job;
    if (message.type === "ready") {
      pw.ready = true;
      clearTimeout(pw.startup);
      if (!pw.retired && pw.job !== undefined) startWatchdog(index, pw, pw.job);
      return;
    }
    if (pw.retired || job === undefined || job.id !== message.id) return;
    if (message.type === "log") {
      job.logs.push(message.line);
      forwardLog(job, message.line);
      return;
    }
    finish(pw);
    if (message.type === "result") job.settle({ result: message.result });
    else if (message.type === "validated") job.settle({});
    else job.settle({ error: fromThrown(message.error) });
  }

  function onDeath(index: number, pw: PoolWorker, cause: string): void {
    if (pw.retired) return;
    const job = pw.job;
    retire(index, pw, `scriptlet worker died: ${cause}`);
    if (job !== undefined)
      job.settle(failure(job, `the scriptlet's worker thread stopped: ${cause}; it was replaced`));
    pump();
  }

  function onOverrun(index: number, pw: PoolWorker): void {
    const job = pw.job;
    if (pw.retired || job === undefined) return;
    retire(index, pw, `scriptlet worker terminated: a run went ${graceMs} ms past its deadline`);
    job.settle(failure(job, DEADLINE_EXCEEDED));
    pump();
  }

  /** A job's worker is free again. */
  function finish(pw: PoolWorker): void {
    if (pw.timer !== undefined) clearTimeout(pw.timer);
    pw.timer = undefined;
    pw.job = undefined;
    pw.worker.unref();
    pump();
  }

  /** The main thread's side of a builtin's read the mirror could not answer. */
  function answer(pw: PoolWorker, request: RpcRequest): void {
    const cluster = pw.job?.call?.cluster;
    let reply: RpcReply;
    try {
      if (cluster === undefined) throw new EngineError("internal", "Scriptlet worker asked outside a run");
      reply = { ok: true, value: read(cluster, request) };
    } catch (error) {
      reply = { ok: false, error: toThrown(error) };
    }
    if (pw.retired) return;
    pw.rpc.postMessage(reply);
    Atomics.store(pw.flag, FLAG_REPLY, 1);
    Atomics.notify(pw.flag, FLAG_REPLY);
  }

  function pump(): void {
    while (queue.length > 0) {
      const job = queue[0]!;
      const index = idleWorker(job.heapMb);
      if (index === undefined) return;
      queue.shift();
      let pw = workers[index];
      if (pw === undefined || pw.heapMb < job.heapMb) {
        // A bigger budget than this worker was started for (a config change): a fresh worker, and
        // never a smaller one again, so runs and validations do not take turns restarting it.
        if (pw !== undefined) retire(index, pw, undefined);
        largestHeapMb = Math.max(largestHeapMb, job.heapMb);
        pw = spawn(index, largestHeapMb);
      }
      dispatch(index, pw, job);
    }
  }

  /** A free slot: an idle worker, preferring one whose heap is big enough, else an empty slot. */
  function idleWorker(heapMb: number): number | undefined {
    let fallback: number | undefined;
    for (let index = 0; index < size; index++) {
      const pw = workers[index];
      if (pw === undefined) fallback ??= index;
      else if (pw.job === undefined) {
        if (pw.heapMb >= heapMb) return index;
        fallback ??= index;
      }
    }
    return fallback;
  }

  function dispatch(index: number, pw: PoolWorker, job: Job): void {
    pw.job = job;
    job.startedMs = performance.now();
    Atomics.store(pw.flag, FLAG_ABORT, 0);
    let message = job.message;
    if (message.type === "run" && job.call !== undefined) {
      const { candidates, updates, dropped } = pw.sender.prepare(job.call, message.withResources);
      message = { ...message, candidates, updates, dropped };
    }
    pw.worker.ref();
    // A fresh worker's start-up (loading the engine, seconds on a loaded machine) is not the run's time.
    if (pw.ready) startWatchdog(index, pw, job);
    try {
      pw.worker.postMessage(
        message,
        message.type === "run" ? [message.candidates.buffer as ArrayBuffer] : [],
      );
    } catch (error) {
      // Not cloneable (a host bug): this run fails, the worker stays.
      finish(pw);
      job.settle({ error });
    }
  }

  /** Terminates the worker if the job is still running `graceMs` past its deadline. */
  function startWatchdog(index: number, pw: PoolWorker, job: Job): void {
    job.startedMs = performance.now();
    pw.timer = setTimeout(() => onOverrun(index, pw), job.timeoutMs + graceMs);
  }

  function enqueue(job: Job): void {
    if (closed) {
      job.settle({ error: new EngineError("unavailable", "The scriptlet runner is closed") });
      return;
    }
    queue.push(job);
    pump();
  }

  /**
   * The caller gave up on `job`, and is answered now: a queued job is dropped; a running one is
   * told through its worker's flag, and the worker stays busy until the run reports it stopped
   * (its late result is ignored) or, should it not stop within `graceMs`, is terminated.
   */
  function cancel(job: Job): void {
    job.settle(failure(job, ABORTED));
    const queued = queue.indexOf(job);
    if (queued >= 0) {
      queue.splice(queued, 1);
      return;
    }
    const index = workers.findIndex((pw) => pw?.job === job);
    const pw = workers[index];
    if (pw === undefined) return;
    Atomics.store(pw.flag, FLAG_ABORT, 1);
    // A worker still starting runs the job on the flag it finds set; its deadline watchdog starts then.
    if (!pw.ready) return;
    if (pw.timer !== undefined) clearTimeout(pw.timer);
    pw.timer = setTimeout(
      () => {
        if (pw.retired || pw.job !== job) return;
        retire(index, pw, `scriptlet worker terminated: a cancelled run did not stop within ${graceMs} ms`);
        pump();
      },
      Math.max(0, graceMs),
    );
  }

  /** Settles a run at once when its signal already aborted; otherwise cancels it when it aborts. */
  function watchSignal(job: Job, signal: AbortSignal | undefined): boolean {
    if (signal === undefined) return true;
    if (signal.aborted) {
      job.settle(failure(job, ABORTED));
      return false;
    }
    const onAbort = () => cancel(job);
    signal.addEventListener("abort", onAbort, { once: true });
    job.unlisten = () => signal.removeEventListener("abort", onAbort);
    return true;
  }

  return {
    get replaced() {
      return replaced;
    },

    validate(source: string, limits?: ScriptletLimits): Promise<void> {
      const effective = limits ?? VALIDATION_LIMITS;
      return new Promise((resolve, reject) => {
        const id = nextId++;
        enqueue({
          id,
          message: { type: "validate", id, source, ...(limits === undefined ? {} : { limits }) },
          heapMb: options.heapMb ?? heapLimitMb(effective),
          timeoutMs: effective.timeoutMs,
          logs: [],
          startedMs: 0,
          settle: ({ error, result }) => {
            if (error !== undefined) reject(error);
            else if (result !== undefined && result.outcome.kind === "rejected")
              // The worker stopped (deadline overrun, death): validation words it as a refusal.
              reject(new EngineError("invalid", stripPrefix(result.outcome.message)));
            else resolve();
          },
        });
      });
    },

    run(version, source, call, logger): Promise<ScriptletResult> {
      return new Promise((resolve, reject) => {
        const id = nextId++;
        const job: Job = {
          id,
          message: {
            type: "run",
            id,
            version,
            source,
            request: call.request,
            instanceResources: call.instanceResources,
            limits: call.limits,
            candidates: new Int32Array(0),
            updates: [],
            dropped: [],
            withResources: needsMemberResources(source),
          },
          heapMb: options.heapMb ?? heapLimitMb(call.limits),
          timeoutMs: call.limits.timeoutMs,
          call,
          ...(logger === undefined ? {} : { logger }),
          logs: [],
          startedMs: 0,
          settle: ({ error, result }) => {
            // Once only: a cancelled run is answered before its worker reports.
            if (job.settled) return;
            job.settled = true;
            job.unlisten?.();
            if (error !== undefined) reject(error);
            else resolve(result!);
          },
        };
        if (watchSignal(job, call.signal)) enqueue(job);
      });
    },

    async close(): Promise<void> {
      closed = true;
      for (const job of queue.splice(0))
        job.settle({ error: new EngineError("unavailable", "The scriptlet runner is closed") });
      await Promise.all(
        workers.map(async (pw, index) => {
          if (pw === undefined) return;
          const job = pw.job;
          pw.retired = true;
          if (pw.timer !== undefined) clearTimeout(pw.timer);
          clearTimeout(pw.startup);
          pw.rpc.close();
          workers[index] = undefined;
          await pw.worker.terminate();
          job?.settle({ error: new EngineError("unavailable", "The scriptlet runner is closed") });
        }),
      );
    },
  };
}

/** A run the pool had to stop: rejected with `Failed to run: <cause>`, with the lines it logged so far. */
function failure(job: Job, cause: string): { result: ScriptletResult } {
  return {
    result: {
      outcome: { kind: "rejected", message: failedToRun(cause) },
      logs: job.logs,
      // A run that never started (cancelled in the queue) took no time.
      cost: { steps: 0, ms: job.startedMs === 0 ? 0 : performance.now() - job.startedMs },
    },
  };
}

function stripPrefix(message: string): string {
  return message.replace(/^Failed instance placement scriptlet: Failed to run: /, "");
}

function describeDeath(error: Error, heapMb: number): string {
  if ((error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY")
    return `it ran out of memory (heap limit ${heapMb} MiB, from instances.placement.scriptlet.max_memory)`;
  return error.message;
}

function forwardLog(job: Job, line: ScriptletLogLine): void {
  const request = job.call?.request;
  if (job.logger === undefined || request === undefined) return;
  try {
    job.logger.log({ ...line, instance: request.name, project: request.project, reason: request.reason });
  } catch {
    // A failing server logger must not change the placement (as in run-log.ts).
  }
}

function read(cluster: ScriptletCall["cluster"], request: RpcRequest): unknown {
  switch (request.method) {
    case "memberState":
      return cluster.memberState(request.name);
    case "memberResources":
      return cluster.memberResources(request.name);
    case "instances":
      return cluster.instances(request.filter);
    case "instancesCount":
      return cluster.instancesCount(request.filter);
    case "clusterMembers":
      return cluster.clusterMembers(request.group);
    case "project":
      return cluster.project(request.name);
  }
}
