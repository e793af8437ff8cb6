/**
 * A scriptlet worker: the synchronous scriptlet host on its own thread. It
 * validates and runs what the pool posts, one message at a time, and reads
 * the cluster from its member mirror or, for anything else, from the main
 * thread over the rpc port (blocking on a shared flag: the Starlark
 * interpreter cannot await, and the main thread's event loop is free to
 * answer while this thread waits).
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { EngineError } from "../../base/errors.js";
import { createScriptletHost } from "../host.js";
import type { ScriptletCall, ScriptletClusterView } from "../port.js";
import { MirrorReceiver } from "./member-mirror.js";
import {
  FLAG_ABORT,
  FLAG_REPLY,
  type FromWorker,
  fromThrown,
  type RpcReply,
  type RpcRequest,
  type RunMessage,
  type ToWorker,
  toThrown,
  type WorkerSetup,
} from "./protocol.js";

const setup = workerData as WorkerSetup;
const flag = new Int32Array(setup.flag);
const host = createScriptletHost(setup.logBudget === undefined ? {} : { logBudget: setup.logBudget });
const mirror = new MirrorReceiver();
const port = parentPort!;

function post(message: FromWorker): void {
  port.postMessage(message);
}

/** Asks the main thread and waits for its answer. */
function ask(request: RpcRequest): unknown {
  Atomics.store(flag, FLAG_REPLY, 0);
  setup.rpc.postMessage(request);
  Atomics.wait(flag, FLAG_REPLY, 0);
  const received = receiveMessageOnPort(setup.rpc);
  if (received === undefined)
    throw new EngineError("internal", "Scriptlet worker: no answer from the main thread");
  const reply = received.message as RpcReply;
  if (!reply.ok) throw fromThrown(reply.error);
  return reply.value;
}

/** The cluster as the builtins read it: the run's candidates from the mirror, the rest from the main thread. */
function clusterView(): ScriptletClusterView {
  return {
    memberState: (name) =>
      mirror.candidate(name)?.state ??
      (ask({ method: "memberState", name }) as ReturnType<ScriptletClusterView["memberState"]>),
    memberResources: (name) =>
      mirror.candidate(name)?.resources ??
      (ask({ method: "memberResources", name }) as ReturnType<ScriptletClusterView["memberResources"]>),
    instances: (filter) =>
      ask({ method: "instances", filter }) as ReturnType<ScriptletClusterView["instances"]>,
    instancesCount: (filter) => ask({ method: "instancesCount", filter }) as number,
    clusterMembers: (group) =>
      ask(
        group === undefined ? { method: "clusterMembers" } : { method: "clusterMembers", group },
      ) as ReturnType<ScriptletClusterView["clusterMembers"]>,
    project: (name) => ask({ method: "project", name }) as ReturnType<ScriptletClusterView["project"]>,
  };
}

/**
 * The pool's cancel of the run in progress, as the interpreter reads an abort signal: only
 * `aborted`, every 1,024 steps. A real AbortSignal cannot serve: this thread's event loop is busy
 * running the scriptlet, so no message could reach it; the shared flag can.
 */
const cancelled = {
  get aborted() {
    return Atomics.load(flag, FLAG_ABORT) === 1;
  },
} as AbortSignal;

function run(message: RunMessage): void {
  mirror.begin(message.candidates, message.updates, message.dropped);
  const call: ScriptletCall = {
    request: message.request,
    candidates: mirror.views(),
    isCandidate: (name) => mirror.candidate(name) !== undefined,
    candidateState: (index) => mirror.stateAt(index),
    instanceResources: message.instanceResources,
    cluster: clusterView(),
    limits: message.limits,
    signal: cancelled,
  };
  const id = message.id;
  const result = host.run(message.version, message.source, call, {
    // Each line goes out as it is written: a run cut short still leaves its lines in the server log.
    log: ({ level, message: text }) => post({ type: "log", id, line: { level, message: text } }),
  });
  post({ type: "result", id, result });
}

post({ type: "ready" });

port.on("message", (message: ToWorker) => {
  try {
    if (message.type === "run") run(message);
    else {
      host.validate(message.source, message.limits);
      post({ type: "validated", id: message.id });
    }
  } catch (error) {
    post({ type: "thrown", id: message.id, error: toThrown(error) });
  }
});
