/**
 * The boundary between the placement pipeline (ENGINE-CORE) and the
 * Starlark scriptlet host (SCRIPTLET-HOST). Everything here is plain JS data
 * named after the LXD/Incus JSON fields, so the scriptlet sees exactly the
 * keys an LXD scriptlet sees (`request.name`, `member.server_name`, ...).
 *
 * Optional fields may be left out: the scriptlet then reads the zero value
 * of the field's kind (`None` for scalars, `[]` for lists, `{}` for maps),
 * as a Go struct decoded by LXD or Incus would. Unknown fields are never visible.
 */

/** Why the placement runs (`request.reason`). */
export type PlacementReason = "new" | "evacuation" | "relocation" | "rebalance";

/** `InstanceSource` of the create body (`request.source`). */
export interface InstanceSourceView {
  type?: string;
  certificate?: string;
  alias?: string;
  fingerprint?: string;
  properties?: Record<string, string>;
  server?: string;
  secret?: string;
  protocol?: string;
  "base-image"?: string;
  mode?: string;
  operation?: string;
  secrets?: Record<string, string>;
  source?: string;
  live?: boolean;
  instance_only?: boolean;
  refresh?: boolean;
  refresh_exclude_older?: boolean;
  project?: string;
  allow_inconsistent?: boolean;
}

/**
 * `InstancePlacement`: the expanded create body (config/devices already
 * merged with the profiles) plus `reason` and `project`.
 */
export interface InstancePlacementView {
  name: string;
  reason: PlacementReason;
  project: string;
  type?: string;
  architecture?: string;
  config?: Record<string, string>;
  devices?: Record<string, Record<string, string>>;
  profiles?: string[];
  source?: InstanceSourceView;
  instance_type?: string;
  description?: string;
  ephemeral?: boolean;
  stateful?: boolean;
  restore?: string;
  start?: boolean;
  disk_only?: boolean;
}

/** `ClusterMember`, as in `GET /1.0/cluster/members/NAME`. */
export interface ClusterMemberView {
  server_name: string;
  url?: string;
  database?: boolean;
  status?: string;
  message?: string;
  architecture?: string;
  roles?: string[];
  failure_domain?: string;
  description?: string;
  config?: Record<string, string>;
  groups?: string[];
}

/** `ClusterMemberSysInfo` (`state.sysinfo`). Byte counts are integers. */
export interface ClusterMemberSysInfoView {
  uptime?: number;
  /** Floats (1, 5 and 15 minute load). */
  load_averages?: number[];
  total_ram?: number;
  free_ram?: number;
  shared_ram?: number;
  buffered_ram?: number;
  total_swap?: number;
  free_swap?: number;
  processes?: number;
  logical_cpus?: number;
}

/** A used/total pair of a member's state report (memory, swap), as LXD's Go struct reads it. */
export interface UsageView {
  /** Bytes in use. */
  used?: number;
  /** Bytes in all. */
  total?: number;
}

/** `StoragePoolState` (`state.storage_pools[NAME]`). */
export interface StoragePoolStateView {
  space?: UsageView;
  inodes?: UsageView;
}

/** `ClusterMemberState`, as in `GET /1.0/cluster/members/NAME/state`. */
export interface ClusterMemberStateView {
  sysinfo?: ClusterMemberSysInfoView;
  storage_pools?: Record<string, StoragePoolStateView>;
}

/**
 * A JSON value as LXD would serialise it. Nested objects of `ResourcesView`
 * are exposed with their own keys as fields (LXD `api.Resources` is deep and
 * its inner structs vary between versions).
 */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue | undefined };

/** `Resources`, as LXD `api.Resources` (`GET /1.0/resources`). */
export interface ResourcesView {
  cpu?: { [key: string]: JsonValue | undefined };
  memory?: { [key: string]: JsonValue | undefined };
  gpu?: { [key: string]: JsonValue | undefined };
  network?: { [key: string]: JsonValue | undefined };
  storage?: { [key: string]: JsonValue | undefined };
  usb?: { [key: string]: JsonValue | undefined };
  pci?: { [key: string]: JsonValue | undefined };
  system?: { [key: string]: JsonValue | undefined };
  load?: { [key: string]: JsonValue | undefined };
  serial?: { [key: string]: JsonValue | undefined };
}

/** `InstanceResources` (`get_instance_resources()`), plus Berth's resource classes. */
export interface InstanceResourcesView {
  cpu_cores: number;
  memory_size: number;
  root_disk_size: number;
  /** Resource class -> amount, custom classes included. */
  resource_classes?: Record<string, number>;
}

/** `Instance`, as returned by `get_instances()`. */
export interface InstanceView {
  name: string;
  project?: string;
  location?: string;
  type?: string;
  architecture?: string;
  description?: string;
  config?: Record<string, string>;
  devices?: Record<string, Record<string, string>>;
  expanded_config?: Record<string, string>;
  expanded_devices?: Record<string, Record<string, string>>;
  profiles?: string[];
  ephemeral?: boolean;
  stateful?: boolean;
  status?: string;
  status_code?: number;
  created_at?: string;
  last_used_at?: string;
}

/** `Project`, as returned by `get_project()`. */
export interface ProjectView {
  name: string;
  description?: string;
  config?: Record<string, string>;
  used_by?: string[];
}

/** Per-run bounds, from server config. */
export interface ScriptletLimits {
  /** Evaluation steps per run (top level + call). */
  maxSteps: number;
  /** Wall-clock budget per run, in milliseconds. */
  timeoutMs: number;
  /** Longest string (in bytes) the scriptlet may build. */
  maxStringLength: number;
  /** Most elements a list/dict/set/tuple may hold. */
  maxCollectionSize: number;
  /** Bytes the run may allocate in total (Starlark's allocation budget), so a memory bomb fails the run instead of the process. */
  maxAllocBytes: number;
}

/** What the pipeline hands the scriptlet for one placement. */
export interface ScriptletCall {
  /** The scriptlet's `request` argument. */
  request: InstancePlacementView;
  /** Already filtered and sorted (instance count ascending, ties in join order). */
  candidates: ClusterMemberView[];
  /**
   * Is `name` one of `candidates`? (`set_target` accepts only those.) A
   * caller that can answer in O(1) passes it; without it the host scans
   * the list, which at 10,000 candidates costs as much as the scriptlet's
   * own work per candidate.
   */
  isCandidate?: (name: string) => boolean;
  /**
   * The state of `candidates[index]`, exactly what `cluster.memberState`
   * answers for its name. Scriptlets mostly ask for the state of each
   * candidate in turn as they walk the list; with this the host answers
   * those calls by position instead of a lookup by name.
   */
  candidateState?: (index: number) => ClusterMemberStateView;
  /**
   * `get_instance_resources()`. With `limits.memory` a percentage of the
   * member's memory, its `memory_size` (and `MEMORY_MB`) is the share of
   * the candidate with the most memory: the most the instance may take on
   * any candidate.
   */
  instanceResources: InstanceResourcesView;
  /**
   * `get_instance_resources(member_name)`: the request sized on that
   * candidate (a memory share resolved against its memory). Absent when
   * the request asks every member for the same amounts.
   */
  instanceResourcesOn?: (candidate: string) => InstanceResourcesView | undefined;
  /** What the builtins read beyond the candidates. */
  cluster: ScriptletClusterView;
  /** This run's bounds (from the server config). */
  limits: ScriptletLimits;
  /** Aborts the run (the caller gave up). */
  signal?: AbortSignal;
}

/** Read access for the builtins, implemented by ENGINE-CORE over its model. */
export interface ScriptletClusterView {
  /** undefined -> unknown member error. */
  memberState(name: string): ClusterMemberStateView | undefined;
  /** undefined -> unknown member error. */
  memberResources(name: string): ResourcesView | undefined;
  instances(filter: { project?: string; location?: string }): InstanceView[];
  instancesCount(filter: { project?: string; location?: string; pending: boolean }): number;
  /** Schedulable members (sorted like candidates); undefined -> unknown group. */
  clusterMembers(group?: string): ClusterMemberView[] | undefined;
  /** undefined -> `Project not found`. */
  project(name: string): ProjectView | undefined;
}

/** What one scriptlet run decided. */
export type ScriptletOutcome =
  /** set_target was called (last successful call wins). */
  | { kind: "target"; member: string }
  /** Returned None without set_target: the default policy picks. */
  | { kind: "default" }
  /**
   * Full LXD text, e.g.
   * 'Failed instance placement scriptlet: Failed with return value: "Invalid name"',
   * 'Failed instance placement scriptlet: Failed to run: fail: x'.
   */
  | {
      kind: "rejected";
      message: string;
      /** The source did not compile, so nothing ran (the engine's warnings tell load from run by this). */
      atLoad?: true;
    };

/** One `log_*` or `print()` line of a run. */
export interface ScriptletLogLine {
  /** `print()` logs at info. */
  level: "info" | "warn" | "error";
  /** The scriptlet's text without the `Instance placement scriptlet: ` prefix. */
  message: string;
}

/** What a run cost: interpreter steps and wall time. */
export interface ScriptletCost {
  /** Starlark steps (one per loop iteration and per call). */
  steps: number;
  /** Wall time of the run, in milliseconds. */
  ms: number;
}

/** A run's answer: its outcome, its log lines (bounded by the log budget) and its cost. */
export interface ScriptletResult {
  /** What it decided. */
  outcome: ScriptletOutcome;
  /** Its lines, in order. */
  logs: ScriptletLogLine[];
  /** What it cost. */
  cost: ScriptletCost;
}

/**
 * Receives each line a scriptlet logs, with the placement it belongs to (berthd logs them as LXD
 * does).
 */
export interface ScriptletLogger {
  /** One line, with the instance, project and reason of the placement. */
  log(line: ScriptletLogLine & { instance: string; project: string; reason: string }): void;
}

/**
 * Compiles, checks and runs LXD/Incus placement scriptlets (the built-in one is
 * `createScriptletHost()`, on `@berth/starlark`).
 */
export interface ScriptletHost {
  /**
   * Compile + run top level + check the instance_placement signature; throws
   * EngineError kind "invalid" with "instance_placement:LINE:COL: message"
   * style texts, the position first as LXD and Incus word them. The top level runs within `limits`
   * (default: the host's validation limits).
   */
  validate(source: string, limits?: ScriptletLimits): void;
  /**
   * Runs the scriptlet for configuration version `version` (compiled program
   * cached per version). `null` runs a scriptlet that is not the configured
   * one (a dry run of a proposed scriptlet): its program is cached by a hash
   * of its source, apart from the configured versions, so testing a
   * scriptlet repeatedly compiles it once and never evicts the one in force.
   */
  run(version: number | null, source: string, call: ScriptletCall, logger?: ScriptletLogger): ScriptletResult;
}

/** Makes a scriptlet host (the worker pool makes one per worker thread). */
export type CreateScriptletHost = () => ScriptletHost;

/**
 * How the engine runs scriptlets: asynchronously, so a host that runs them
 * off the event loop (berthd's worker pool, scriptlet/workers/) can answer
 * later while the process keeps serving. `inProcessRunner` wraps the
 * synchronous host for embedders that need no threads (and tests).
 * Same contract and texts as ScriptletHost.
 */
export interface ScriptletRunner {
  validate(source: string, limits?: ScriptletLimits): Promise<void>;
  run(
    version: number | null,
    source: string,
    call: ScriptletCall,
    logger?: ScriptletLogger,
  ): Promise<ScriptletResult>;
  /** Stops what the runner started (worker threads); runs after close fail. */
  close(): Promise<void>;
}
