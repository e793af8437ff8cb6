/**
 * Messages between the pool (main thread) and a scriptlet worker. Plain
 * structured-cloneable data; the cluster the scriptlet reads travels as a
 * member mirror kept in step by identity (member-mirror.ts), and whatever
 * the mirror does not hold is asked for synchronously over the `rpc` port
 * (the worker blocks on a shared flag while the main thread answers).
 */
import type { MessagePort } from "node:worker_threads";
import { EngineError, type EngineErrorKind } from "../../base/errors.js";
import type {
  ClusterMemberStateView,
  ClusterMemberView,
  InstancePlacementView,
  InstanceResourcesView,
  ResourcesView,
  ScriptletLimits,
  ScriptletLogLine,
  ScriptletResult,
} from "../port.js";

/** What changed of one member since the worker last saw it (absent fields: unchanged). */
export interface MemberUpdate {
  slot: number;
  name?: string;
  view?: ClusterMemberView;
  state?: ClusterMemberStateView;
  resources?: ResourcesView;
}

export interface RunMessage {
  type: "run";
  id: number;
  version: number | null;
  source: string;
  request: InstancePlacementView;
  instanceResources: InstanceResourcesView;
  limits: ScriptletLimits;
  /** Mirror slots of the candidates, in order. */
  candidates: Int32Array;
  updates: MemberUpdate[];
  /** Mirror slots of members that are gone (deleted or renamed), forgotten before the updates apply. */
  dropped: number[];
  /** The mirror holds the candidates' resources too (the scriptlet can call get_cluster_member_resources). */
  withResources: boolean;
}

export interface ValidateMessage {
  type: "validate";
  id: number;
  source: string;
  limits?: ScriptletLimits;
}

export type ToWorker = RunMessage | ValidateMessage;

/** An error thrown on one side, rebuilt as an EngineError on the other. */
export interface ThrownError {
  kind: string;
  message: string;
  details?: unknown;
}

/** An error as it crosses threads: an EngineError keeps its kind and details, anything else is internal. */
export function toThrown(error: unknown): ThrownError {
  if (error instanceof EngineError)
    return { kind: error.kind, message: error.message, details: error.details };
  return { kind: "internal", message: error instanceof Error ? error.message : String(error) };
}

/** The EngineError a ThrownError stands for. */
export function fromThrown(error: ThrownError): EngineError {
  return new EngineError(
    error.kind as EngineErrorKind,
    error.message,
    error.details as Record<string, unknown> | undefined,
  );
}

export type FromWorker =
  /** Loaded and listening: deadlines count from here, not from the thread's start-up. */
  | { type: "ready" }
  | { type: "log"; id: number; line: ScriptletLogLine }
  | { type: "result"; id: number; result: ScriptletResult }
  | { type: "validated"; id: number }
  | { type: "thrown"; id: number; error: ThrownError };

/** A builtin's read the mirror cannot answer, asked of the main thread. */
export type RpcRequest =
  | { method: "memberState"; name: string }
  | { method: "memberResources"; name: string }
  | { method: "instances"; filter: { project?: string; location?: string } }
  | { method: "instancesCount"; filter: { project?: string; location?: string; pending: boolean } }
  | { method: "clusterMembers"; group?: string }
  | { method: "project"; name: string };

export type RpcReply = { ok: true; value: unknown } | { ok: false; error: ThrownError };

/** Size of the worker's shared flag: two Int32 slots. */
export const FLAG_BYTES = 8;
/** The slot that is 1 once the main thread has posted an rpc reply. */
export const FLAG_REPLY = 0;
/** The slot that is 1 once the running job is cancelled (its caller gave up); reset for each job. */
export const FLAG_ABORT = 1;

/** What a worker is started with. */
export interface WorkerSetup {
  rpc: MessagePort;
  /** Int32Array over it, slots FLAG_REPLY and FLAG_ABORT. */
  flag: SharedArrayBuffer;
  logBudget?: number;
}
