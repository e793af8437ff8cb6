/**
 * The eleven builtins a placement scriptlet may call (LXD and
 * Incus), bound to one run. Arguments unpack go-style (argspec.ts); results
 * are lazy read-only objects over the cluster view's plain data (objects.ts).
 */
import {
  Builtin,
  decodeByteStringToUtf8,
  None,
  reprBytes,
  EvalError as StarEvalError,
  StarList,
  type Thread,
  type Value,
} from "@berth/starlark";
import { type ParamSpec, unpackBuiltinArgs } from "./argspec.js";
import { groupNotFound, invalidMemberName, projectNotFound } from "./messages.js";
import { HostObject } from "./objects.js";
import type {
  ClusterMemberStateView,
  ClusterMemberView,
  ResourcesView,
  ScriptletCall,
  ScriptletLogLine,
} from "./port.js";
import {
  clusterMemberSchema,
  clusterMemberStateSchema,
  instanceResourcesSchema,
  instanceSchema,
  projectSchema,
  resourcesSchema,
} from "./schemas.js";

/** Names the compiler must know; any other free name is `undefined: X`. */
export const BUILTIN_NAMES = [
  "log_info",
  "log_warn",
  "log_error",
  "set_target",
  "get_cluster_member_resources",
  "get_cluster_member_state",
  "get_instance_resources",
  "get_instances",
  "get_instances_count",
  "get_cluster_members",
  "get_project",
] as const;

export type BuiltinName = (typeof BUILTIN_NAMES)[number];

/** What the builtins of one run share with the host. */
export interface RunState {
  readonly call: ScriptletCall;
  /** Receives every log line (log_* builtins and print). */
  emit(line: ScriptletLogLine): void;
  /** Set by set_target; the last successful call wins. */
  target: string | undefined;
}

const MEMBER_NAME: readonly ParamSpec[] = [{ name: "member_name", type: "string", optional: false }];
const INSTANCES_FILTER: readonly ParamSpec[] = [
  { name: "project", type: "string", optional: true },
  { name: "location", type: "string", optional: true },
];
const INSTANCES_COUNT_FILTER: readonly ParamSpec[] = [
  ...INSTANCES_FILTER,
  { name: "pending", type: "bool", optional: true },
];
const GROUP: readonly ParamSpec[] = [{ name: "group", type: "string", optional: true }];
const PROJECT_NAME: readonly ParamSpec[] = [{ name: "name", type: "string", optional: true }];

/**
 * Log pieces: strings raw, everything else as its repr, joined with no
 * separator. The joined text is bounded like any string the scriptlet builds.
 */
export function joinLogPieces(args: readonly Value[], thread: Thread): string {
  let text = "";
  for (const a of args) {
    text += typeof a === "string" ? a : reprBytes(a, thread);
    thread.checkStringLength(text.length);
  }
  return decodeByteStringToUtf8(text);
}

/**
 * The single member_name argument. The common call `f(name)` skips the
 * generic unpacker: scriptlets call these once per candidate.
 */
function memberNameArg(fnName: string, args: readonly Value[], kwargs: readonly [string, Value][]): string {
  const first = args[0];
  if (args.length === 1 && kwargs.length === 0 && typeof first === "string")
    return decodeByteStringToUtf8(first);
  const [name] = unpackBuiltinArgs(fnName, args, kwargs, MEMBER_NAME);
  return decodeByteStringToUtf8(name as string);
}

function optionalString(v: string | boolean | undefined): string | undefined {
  return typeof v === "string" ? decodeByteStringToUtf8(v) : undefined;
}

/**
 * A failure of the cluster view (say a not-found EngineError for an unknown
 * project in a count) becomes a Starlark error with the same message, so it
 * aborts the run like LXD's Go errors do.
 */
function viewFailure(err: unknown): StarEvalError {
  if (err instanceof StarEvalError) return err;
  return new StarEvalError(err instanceof Error ? err.message : String(err));
}

/** Runs a cluster view query, turning its failures into Starlark errors. */
function ask<T>(query: () => T): T {
  try {
    return query();
  } catch (err) {
    throw viewFailure(err);
  }
}

function memberList(members: readonly ClusterMemberView[], thread: Thread): StarList {
  const elems: Value[] = new Array(members.length);
  for (let i = 0; i < members.length; i++) {
    elems[i] = new HostObject(clusterMemberSchema, members[i] as unknown as Record<string, unknown>, thread);
  }
  return new StarList(elems);
}

/**
 * Lists built by builtins count against the run's bounds: one step per
 * element and the collection cap. Otherwise a loop calling get_instances()
 * on a large cluster could hold millions of objects within a small budget.
 */
function chargeListBuild(thread: Thread, length: number): void {
  thread.checkCollectionSize(length);
  thread.checkStep(length);
}

/** The candidate list handed to `instance_placement(candidate_members=...)`. */
export function candidateList(candidates: readonly ClusterMemberView[], thread: Thread): StarList {
  return memberList(candidates, thread);
}

/** Scans before building a name set: below this many set_target calls a scan is cheaper. */
const SCANS_BEFORE_SET = 8;

/**
 * Membership test for set_target. Most scriptlets call set_target once, and a
 * Set of 10,000 names built for that one call cost more than the rest of the
 * builtin work of a run (about a tenth of a 10,000-member placement), so the
 * first calls scan the list; a scriptlet that calls it in a loop gets the Set.
 */
function candidateCheck(candidates: readonly ClusterMemberView[]): (name: string) => boolean {
  let scans = 0;
  let names: Set<string> | undefined;
  return (name) => {
    if (names !== undefined) return names.has(name);
    if (++scans > SCANS_BEFORE_SET) {
      names = new Set(candidates.map((m) => m.server_name));
      return names.has(name);
    }
    for (let i = 0; i < candidates.length; i++) {
      if ((candidates[i] as ClusterMemberView).server_name === name) return true;
    }
    return false;
  };
}

/**
 * `cluster.memberState(name)`, answered by position when the caller can
 * (`ScriptletCall.candidateState`) and `name` is the candidate after the
 * one asked about last: scriptlets walk `candidate_members` in order and
 * ask about each in turn, and at 10,000 members a lookup by name is a
 * cache miss or two per call. The name a scriptlet passes is the very
 * string the candidate's `server_name` handed out, so the check is a
 * pointer comparison; any other name takes the lookup.
 */
function memberStateLookup(call: ScriptletCall): (name: string) => ClusterMemberStateView | undefined {
  const { candidates, cluster, candidateState } = call;
  if (candidateState === undefined) return (name) => cluster.memberState(name);
  let next = 0;
  return (name) => {
    // A scriptlet that skips a few candidates (a `continue` on some field) stays on the fast path.
    const end = Math.min(candidates.length, next + LOOK_AHEAD);
    for (let index = next; index < end; index++) {
      if ((candidates[index] as ClusterMemberView).server_name === name) {
        next = index + 1;
        return candidateState(index);
      }
    }
    return cluster.memberState(name);
  };
}

/** Candidates past the expected one checked before looking a name up. */
const LOOK_AHEAD = 4;

export function createBuiltins(state: RunState): Record<BuiltinName, Builtin> {
  const { call } = state;
  const cluster = call.cluster;
  const isCandidate = call.isCandidate ?? candidateCheck(call.candidates);
  const memberState = memberStateLookup(call);

  const logger = (level: ScriptletLogLine["level"], fnName: string) =>
    new Builtin(fnName, (thread, args) => {
      // LXD ignores keyword arguments here.
      state.emit({ level, message: joinLogPieces(args, thread) });
      return None;
    });

  return {
    log_info: logger("info", "log_info"),
    log_warn: logger("warn", "log_warn"),
    log_error: logger("error", "log_error"),

    set_target: new Builtin("set_target", (_thread, args, kwargs) => {
      const name = memberNameArg("set_target", args, kwargs);
      if (!isCandidate(name)) throw new StarEvalError(invalidMemberName(name));
      state.target = name;
      return None;
    }),

    get_cluster_member_state: new Builtin("get_cluster_member_state", (thread, args, kwargs) => {
      const name = memberNameArg("get_cluster_member_state", args, kwargs);
      let view: ClusterMemberStateView | undefined;
      try {
        view = memberState(name);
      } catch (err) {
        throw viewFailure(err);
      }
      if (view === undefined) throw new StarEvalError(invalidMemberName(name));
      return new HostObject(clusterMemberStateSchema, view as Record<string, unknown>, thread);
    }),

    get_cluster_member_resources: new Builtin("get_cluster_member_resources", (thread, args, kwargs) => {
      const name = memberNameArg("get_cluster_member_resources", args, kwargs);
      let view: ResourcesView | undefined;
      try {
        view = cluster.memberResources(name);
      } catch (err) {
        throw viewFailure(err);
      }
      if (view === undefined) throw new StarEvalError(invalidMemberName(name));
      return new HostObject(resourcesSchema, view as Record<string, unknown>, thread);
    }),

    // LXD does not unpack arguments here: extra ones are ignored. Berth reads one: a candidate's
    // name (first positional, or member_name=) sizes a memory share (limits.memory: 50%) on it.
    get_instance_resources: new Builtin("get_instance_resources", (thread, args, kwargs) => {
      const named = args[0] ?? kwargs.find(([key]) => key === "member_name")?.[1];
      const member = typeof named === "string" ? decodeByteStringToUtf8(named) : undefined;
      const view =
        member !== undefined && call.instanceResourcesOn !== undefined && isCandidate(member)
          ? (call.instanceResourcesOn(member) ?? call.instanceResources)
          : call.instanceResources;
      return new HostObject(instanceResourcesSchema, view as unknown as Record<string, unknown>, thread);
    }),

    get_instances: new Builtin("get_instances", (thread, args, kwargs) => {
      const [project, location] = unpackBuiltinArgs("get_instances", args, kwargs, INSTANCES_FILTER);
      const filter: { project?: string; location?: string } = {};
      const p = optionalString(project);
      const l = optionalString(location);
      if (p !== undefined) filter.project = p;
      if (l !== undefined) filter.location = l;
      const instances = ask(() => cluster.instances(filter));
      chargeListBuild(thread, instances.length);
      return new StarList(
        instances.map((i) => new HostObject(instanceSchema, i as unknown as Record<string, unknown>, thread)),
      );
    }),

    get_instances_count: new Builtin("get_instances_count", (_thread, args, kwargs) => {
      const [project, location, pending] = unpackBuiltinArgs(
        "get_instances_count",
        args,
        kwargs,
        INSTANCES_COUNT_FILTER,
      );
      const filter: { project?: string; location?: string; pending: boolean } = { pending: pending === true };
      const p = optionalString(project);
      const l = optionalString(location);
      if (p !== undefined) filter.project = p;
      if (l !== undefined) filter.location = l;
      return ask(() => cluster.instancesCount(filter));
    }),

    get_cluster_members: new Builtin("get_cluster_members", (thread, args, kwargs) => {
      const [group] = unpackBuiltinArgs("get_cluster_members", args, kwargs, GROUP);
      const g = optionalString(group);
      const members = ask(() => cluster.clusterMembers(g));
      if (members === undefined) throw new StarEvalError(groupNotFound(g ?? ""));
      chargeListBuild(thread, members.length);
      return memberList(members, thread);
    }),

    get_project: new Builtin("get_project", (thread, args, kwargs) => {
      const [name] = unpackBuiltinArgs("get_project", args, kwargs, PROJECT_NAME);
      // Berth extension: without a name, the project the instance is placed in
      // (Incus answers "Project not found" there, which helps nobody).
      const projectName = optionalString(name) ?? call.request.project;
      const project = ask(() => cluster.project(projectName));
      if (project === undefined) throw new StarEvalError(projectNotFound());
      return new HostObject(projectSchema, project as unknown as Record<string, unknown>, thread);
    }),
  };
}
