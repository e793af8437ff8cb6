/**
 * The scriptlet host: validates `instances.placement.scriptlet` values and
 * runs the scriptlet for one placement (the LXD/Incus
 * `instance_placement(request, candidate_members)` contract).
 */
import { createHash } from "node:crypto";
import {
  call as callStarlark,
  decodeByteStringToUtf8,
  encodeUtf8ToByteString,
  None,
  type Program,
  reprBytes,
  type Thread,
  type Value,
} from "@berth/starlark";
import { EngineError } from "../base/errors.js";
import { candidateList, createBuiltins, type RunState } from "./builtins.js";
import { ProgramCache } from "./cache.js";
import {
  boundedThread,
  compileScriptlet,
  errorPosition,
  functionParams,
  isStarlarkError,
  ScriptletCompileError,
} from "./interpreter.js";
import {
  ENTRY_POINT,
  failedInitializing,
  failedToRun,
  missingEntryPoint,
  notLoaded,
  positioned,
  rejectedByReturnValue,
} from "./messages.js";
import { HostObject } from "./objects.js";
import type {
  ScriptletCall,
  ScriptletHost,
  ScriptletLimits,
  ScriptletLogger,
  ScriptletLogLine,
  ScriptletOutcome,
  ScriptletResult,
} from "./port.js";
import { DEFAULT_LOG_BUDGET, RunLog } from "./run-log.js";
import { instancePlacementSchema } from "./schemas.js";
import { checkEntryPoint, type EntryPointShape } from "./signature.js";
import { typeNameOf } from "./values.js";

/**
 * Bounds for running a scriptlet's top level during validation (the server
 * config's limits apply to placements; validation has none of its own).
 */
export const VALIDATION_LIMITS: ScriptletLimits = Object.freeze({
  maxSteps: 1_000_000,
  timeoutMs: 2_000,
  maxStringLength: 1 << 20,
  maxCollectionSize: 100_000,
  maxAllocBytes: 64 * 1024 * 1024,
});

export interface ScriptletHostOptions {
  /** Compiled versions kept (default 4). */
  cacheSize?: number;
  /** Compiled programs of other scriptlets (dry-run tests, validation) kept by source hash (default 8). */
  sourceCacheSize?: number;
  /** Bounds for the top-level run during validate() (default VALIDATION_LIMITS). */
  validationLimits?: ScriptletLimits;
  /** Characters of log output kept per run (default DEFAULT_LOG_BUDGET, 1 Mi). */
  logBudget?: number;
  /** Called before each compilation (diagnostics; tests use it to see what the caches save). */
  onCompile?: (source: string) => void;
}

/** A validation error's position as `EngineError.details` (`ScriptletProblem` in services/scriptlet-value.ts). */
function positionDetails(pos: { line: number; col: number } | undefined) {
  return pos === undefined ? undefined : { line: pos.line, column: pos.col };
}

/** Text of a Starlark error as callers see it (Starlark errors carry normal JS strings). */
function messageOf(err: unknown): string {
  if (err instanceof RangeError) return `internal error: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Errors a scriptlet can cause: Starlark errors, and the JS engine's own
 * stack overflow on pathological nesting. Anything else is a host bug,
 * reported as an internal EngineError rather than blamed on the scriptlet.
 */
function isScriptletFault(err: unknown): boolean {
  return isStarlarkError(err) || err instanceof RangeError;
}

/** A failure that is not the scriptlet's doing (a bug in the host or interpreter). */
function hostFailure(err: unknown): EngineError {
  const message = err instanceof Error ? err.message : String(err);
  return new EngineError("internal", `Instance placement scriptlet host failure: ${message}`, { cause: err });
}

function shapeOf(v: Value | undefined): EntryPointShape {
  if (v === undefined) return { kind: "missing" };
  const params = functionParams(v);
  if (params === undefined) return { kind: "not_function", typeName: typeNameOf(v) };
  return { kind: "function", params };
}

/** Cache key of a scriptlet that is not a configuration version (entries also keep the source, so a collision cannot run the wrong program). */
function sourceHash(source: string): string {
  return createHash("sha256").update(source).digest("base64");
}

/**
 * The built-in scriptlet host on `@berth/starlark`: LXD/Incus's dialect, builtins and error texts,
 * compiled programs cached per configuration version.
 */
export function createScriptletHost(options: ScriptletHostOptions = {}): ScriptletHost {
  const onCompile = options.onCompile;
  const compile = (source: string): Program => {
    onCompile?.(source);
    return compileScriptlet(source);
  };
  const cache = new ProgramCache<Program>(options.cacheSize ?? 4);
  // Programs that are not a configuration version, by source hash: a separate
  // cache so proposed scriptlets never evict the one in force.
  const bySource = new ProgramCache<Program, string>(options.sourceCacheSize ?? 8);
  const compileBySource = (source: string): Program =>
    bySource.getOrCompile(sourceHash(source), source, compile);
  const validationLimits = options.validationLimits ?? VALIDATION_LIMITS;
  const logBudget = options.logBudget ?? DEFAULT_LOG_BUDGET;

  function validate(source: string, limits: ScriptletLimits = validationLimits): void {
    // The empty value unsets the key; there is nothing to check (LXD/Incus: validate.Optional).
    if (source === "") return;
    let program: Program;
    try {
      program = compileBySource(source);
    } catch (err) {
      if (err instanceof ScriptletCompileError)
        throw new EngineError("invalid", err.message, positionDetails(err.position));
      throw hostFailure(err);
    }
    // The top level runs with no builtins bound, as Incus does: it may define
    // things but not call the placement builtins.
    const thread = boundedThread(limits, () => {});
    let entry: Value | undefined;
    try {
      entry = program.init(thread, {}).get(ENTRY_POINT);
    } catch (err) {
      if (!isScriptletFault(err)) throw hostFailure(err);
      const pos = isStarlarkError(err) ? errorPosition(err) : undefined;
      throw new EngineError("invalid", positioned(pos, messageOf(err)), positionDetails(pos));
    }
    const check = checkEntryPoint(shapeOf(entry));
    if (!check.ok) throw new EngineError("invalid", check.message);
  }

  function run(
    version: number | null,
    source: string,
    call: ScriptletCall,
    logger?: ScriptletLogger,
  ): ScriptletResult {
    const started = performance.now();
    const { request } = call;
    const log = new RunLog(logBudget, logger, {
      instance: request.name,
      project: request.project,
      reason: request.reason,
    });
    const emit = (line: ScriptletLogLine): void => log.emit(line);
    let thread: Thread | undefined;
    const finish = (outcome: ScriptletOutcome): ScriptletResult => ({
      outcome,
      logs: log.lines(),
      cost: { steps: thread?.steps ?? 0, ms: performance.now() - started },
    });
    const reject = (message: string): ScriptletResult => finish({ kind: "rejected", message });

    let program: Program;
    try {
      program = version === null ? compileBySource(source) : cache.getOrCompile(version, source, compile);
    } catch (err) {
      // Validation keeps invalid values out of the config; this only happens
      // for values stored by other means. LXD answers "not loaded" then.
      if (!(err instanceof ScriptletCompileError)) throw hostFailure(err);
      emit({ level: "error", message: `Failed loading instance placement scriptlet: ${err.message}` });
      return finish({ kind: "rejected", message: notLoaded(), atLoad: true });
    }

    const state: RunState = { call, emit, target: undefined };
    thread = boundedThread(call.limits, (msg) => emit({ level: "info", message: msg }), call.signal);
    let entry: Value | undefined;
    try {
      entry = program.init(thread, createBuiltins(state)).get(ENTRY_POINT);
    } catch (err) {
      if (!isScriptletFault(err)) throw hostFailure(err);
      return reject(failedInitializing(messageOf(err)));
    }
    if (entry === undefined) return reject(missingEntryPoint());

    const kwargs: [string, Value][] = [
      [
        "request",
        new HostObject(instancePlacementSchema, request as unknown as Record<string, unknown>, thread),
      ],
      ["candidate_members", candidateList(call.candidates, thread)],
    ];
    // The pre-release LXD form instance_placement(reason, request, candidate_members).
    if (functionParams(entry)?.includes("reason")) {
      kwargs.unshift(["reason", encodeUtf8ToByteString(request.reason)]);
    }

    let returned: Value;
    try {
      returned = callStarlark(thread, entry, [], kwargs);
    } catch (err) {
      if (!isScriptletFault(err)) throw hostFailure(err);
      return reject(failedToRun(messageOf(err)));
    }
    if (returned !== None) {
      // Bounded like any string the scriptlet builds: the value may be huge.
      let shown: string;
      try {
        shown = decodeByteStringToUtf8(reprBytes(returned, thread));
      } catch (err) {
        if (!isScriptletFault(err)) throw hostFailure(err);
        return reject(failedToRun(messageOf(err)));
      }
      return reject(rejectedByReturnValue(shown));
    }
    return finish(
      state.target === undefined ? { kind: "default" } : { kind: "target", member: state.target },
    );
  }

  return { validate, run };
}
