/**
 * Creating instances and reservations: one placement, dry runs, and bulk
 * creates (every instance placed against the model with earlier ones held as
 * in-flight, then ONE claim for the whole batch: all land or none do).
 */
import type { InstancesPost } from "@berth/api-types";
import { EngineError, invalid } from "../base/errors.js";
import { claimWithRetries } from "../claim/claim.js";
import { PlacementsPlan } from "../claim/placements.js";
import type { DecidedBy } from "../decide/decide.js";
import { plan } from "../decide/plan.js";
import { scriptletSetup, scriptletSetupOrNone } from "../decide/scriptlet-setup.js";
import { REJECTION_SAMPLE } from "../decide/tally.js";
import { BatchMemo } from "../expand/batch-memo.js";
import { CatalogCache } from "../expand/catalog-cache.js";
import { expandCreate } from "../expand/create.js";
import { ExpansionCache, type SharedDerivations } from "../expand/expansion-cache.js";
import type { InstanceExpansion } from "../expand/instance-expansion.js";
import type { PlacementRequest } from "../expand/request.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import type { ScriptletLogLine } from "../scriptlet/port.js";
import { cloneDevices } from "../store/clone.js";
import type { InstanceRecord, RejectionGroup } from "../store/records.js";
import type { DryRunOutcome } from "./dry-run.js";
import { checkScriptletValue } from "./scriptlet-value.js";

/** Where and for whom a create places: the project, an optional target, and a signal to give up. */
export interface CreateOptions {
  /** The instance's project (default `default`). */
  project?: string;
  /** `member` or `@group`. */
  target?: string;
  /**
   * The caller gave up (berthd: the HTTP client went away): a scriptlet run still going stops
   * at its next check and the placement fails with the interpreter's own text,
   * `Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: aborted`.
   */
  signal?: AbortSignal;
}

/**
 * A dry run's options: those of a create, plus a scriptlet to try instead of the configured one.
 */
export interface DryRunOptions extends CreateOptions {
  /**
   * Dry-run this scriptlet instead of the configured one (`berth scriptlet
   * test`). Validated like a config set of `instances.placement.scriptlet`
   * (same messages, kind "invalid"); "" dry-runs without a scriptlet.
   */
  scriptletSource?: string;
}

/** What a create answers: the instance as stored and how its member was chosen. */
export interface PlacementOutcome {
  /** The instance as stored (its `location` is the chosen member). */
  instance: InstanceRecord;
  /** Who chose: the target, the scriptlet or the default policy. */
  decidedBy: DecidedBy;
  /** Members that passed every filter (the default policy may name only the chosen one). */
  candidates: string[];
  /** The scriptlet's log lines. */
  logs: ScriptletLogLine[];
  /** What the scriptlet run cost (zeros when none ran). */
  cost: {
    /** Starlark steps the run took. */
    steps: number;
    /** Wall time of the run, in milliseconds. */
    ms: number;
  };
  /** Claim attempts it took (1 unless a race was lost). */
  attempts: number;
  /** The created instance's `expanded_config`/`expanded_devices`, from the profiles the placement read. */
  expanded: InstanceExpansion;
}

/** What a bulk create answers: every instance placed, in one claim. */
export interface BulkOutcome {
  /** The instances as stored, in request order. */
  instances: InstanceRecord[];
  /** The order the instances were placed in (indices into the request). */
  placementOrder: number[];
  /** Claim attempts it took (1 unless a race was lost). */
  attempts: number;
}

/**
 * How a bulk create orders its placements: largest first (first-fit decreasing, the default
 * without a scriptlet) or as requested.
 */
export type BulkOrder = "largest-first" | "request";

/** Sort key for first-fit-decreasing: memory, then CPUs, then disk, then everything else. */
export function sizeKey(request: PlacementRequest): number[] {
  const resources = request.resources;
  let others = 0;
  for (const [resourceClass, amount] of Object.entries(resources)) {
    if (resourceClass !== "MEMORY_MB" && resourceClass !== "VCPU" && resourceClass !== "DISK_GB")
      others += amount;
  }
  return [resources.MEMORY_MB ?? 0, resources.VCPU ?? 0, resources.DISK_GB ?? 0, others];
}

export function compareSizeDesc(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const diff = (b[i] ?? 0) - (a[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

export class Placer {
  /** Expanded create bodies and project facts, kept across requests while their sources stay unchanged. */
  private readonly shared: SharedDerivations;

  constructor(
    private readonly runtime: EngineRuntime,
    private readonly maxAttempts: number,
  ) {
    this.shared = { expansions: new ExpansionCache(), projectFacts: new WeakMap(), context: runtime };
  }

  /** A memo for one operation, backed by what is kept across requests. */
  private memo(): BatchMemo {
    return new BatchMemo(this.shared);
  }

  create(body: InstancesPost, options: CreateOptions = {}): Promise<PlacementOutcome> {
    return this.runtime.againIfStale(() => this.createOnce(body, options));
  }

  private async createOnce(body: InstancesPost, options: CreateOptions): Promise<PlacementOutcome> {
    const runtime = this.runtime;
    // Steps 1-2 (see `prepare`) awaited here rather than through it: one async frame and two
    // promises fewer per create (with runtime.sync not async and no scriptlet set-up promise: 24
    // promises per create, 30 before, d77d930 18).
    await runtime.sync();
    const request = await this.expand(body, options);
    const setup = this.scriptletFor(request, options, undefined);
    const scriptlet = setup instanceof Promise ? await setup : setup;
    const placement = new PlacementsPlan(runtime, [{ request }], { scriptlet });
    const { result, attempts } = await claimWithRetries(runtime, this.maxAttempts, placement);
    const final = placement.decisions[0]!;
    const instance = result.instances[0]!;
    return {
      instance,
      decidedBy: final.decidedBy,
      candidates: final.candidates,
      logs: final.scriptlet?.logs ?? [],
      cost: final.scriptlet?.cost ?? { steps: 0, ms: 0 },
      attempts,
      // The request's expansion is the instance's: its profiles, its own values, its sizing.
      expanded: { config: { ...request.expandedConfig }, devices: cloneDevices(request.expandedDevices) },
    };
  }

  /**
   * Steps 1-2 of a create or a dry run: the model brought up to date, the
   * body expanded, and the scriptlet set up (`proposed` source, else the
   * configured one). As in LXD and Incus, the scriptlet runs only without a
   * member target.
   */
  private async prepare(body: InstancesPost, options: CreateOptions, proposed: string | undefined) {
    await this.runtime.sync();
    const request = await this.expand(body, options);
    const scriptlet = await this.scriptletFor(request, options, proposed);
    return { request, scriptlet };
  }

  /** Step 2: the body expanded into the request the later steps carry. */
  private expand(body: InstancesPost, options: CreateOptions): Promise<PlacementRequest> {
    const runtime = this.runtime;
    const project = options.project ?? "default";
    return expandCreate(runtime, new CatalogCache(runtime), body, project, options.target, this.memo());
  }

  /**
   * The scriptlet to consult (`proposed` source, else the configured one), or null; a promise
   * only when one runs, so the usual placement without one takes no promise hop here.
   */
  private scriptletFor(request: PlacementRequest, options: CreateOptions, proposed: string | undefined) {
    return request.target?.kind === "member" ? null : scriptletSetupOrNone(this.runtime, proposed, options);
  }

  /** Decides without claiming: the decision, the candidates, the scriptlet's logs and cost. */
  dryRun(body: InstancesPost, options: DryRunOptions = {}): Promise<DryRunOutcome> {
    return this.runtime.againIfStale(() => this.dryRunOnce(body, options));
  }

  private async dryRunOnce(body: InstancesPost, options: DryRunOptions): Promise<DryRunOutcome> {
    const runtime = this.runtime;
    const proposed = options.scriptletSource;
    // Checked before anything else: a bad scriptlet is the caller's error, not a rejected placement.
    if (proposed !== undefined) await checkScriptletValue(runtime.scriptlets, proposed);
    const { request, scriptlet } = await this.prepare(body, options, proposed);
    await runtime.syncTrees();
    try {
      const decision = await plan(runtime, request, { scriptlet, listAll: true });
      return {
        decision: { outcome: "placed", member: decision.member.name, decidedBy: decision.decidedBy },
        candidates: decision.candidates,
        rejections: decision.explanation?.rejections ?? [],
        scriptletRan: decision.scriptlet !== null,
        logs: decision.scriptlet?.logs ?? [],
        cost: { steps: decision.scriptlet?.cost.steps ?? 0, ms: decision.scriptlet?.cost.ms ?? 0 },
      };
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      const details = (error.details ?? {}) as {
        logs?: ScriptletLogLine[];
        cost?: { steps: number; ms: number };
        candidates?: string[];
        rejections?: RejectionGroup[];
      };
      return {
        decision: { outcome: "rejected", error },
        candidates: details.candidates ?? [],
        rejections: sampled(details.rejections ?? []),
        scriptletRan: error.kind === "scriptlet",
        logs: details.logs ?? [],
        cost: { steps: details.cost?.steps ?? 0, ms: details.cost?.ms ?? 0 },
      };
    }
  }

  /**
   * All-or-nothing bulk create. Without a scriptlet, and unless told
   * otherwise, the larger instances are placed first (first-fit decreasing):
   * small instances spread by the default policy can otherwise leave no
   * single member with room for a big one that a different order would fit.
   * With a scriptlet, request order is kept so the scriptlet sees the
   * batch in the order the operator wrote it.
   */
  bulk(bodies: InstancesPost[], options: CreateOptions & { order?: BulkOrder } = {}): Promise<BulkOutcome> {
    return this.runtime.againIfStale(() => this.bulkOnce(bodies, options));
  }

  private async bulkOnce(
    bodies: InstancesPost[],
    options: CreateOptions & { order?: BulkOrder },
  ): Promise<BulkOutcome> {
    const runtime = this.runtime;
    if (bodies.length === 0) throw invalid("A bulk create needs at least one instance");
    await runtime.sync();
    const catalog = new CatalogCache(runtime);
    const memo = this.memo();
    const project = options.project ?? "default";
    const requests: PlacementRequest[] = [];
    const seen = new Map<string, number>();
    for (const [index, body] of bodies.entries()) {
      try {
        const request = await expandCreate(runtime, catalog, body, project, options.target, memo);
        const key = request.name;
        if (key !== "" && seen.has(key)) {
          throw invalid(`Duplicate instance name "${key}" (also at index ${seen.get(key)})`);
        }
        if (key !== "") seen.set(key, index);
        requests.push(request);
      } catch (error) {
        throw bulkFailure(error, index, body.name ?? "");
      }
    }
    const scriptlet =
      options.target?.startsWith("@") === false ? null : await scriptletSetup(runtime, undefined, options);
    const order = requests.map((_, index) => index);
    const wantsLargestFirst = (options.order ?? "largest-first") === "largest-first";
    if (scriptlet === null && wantsLargestFirst) {
      const keys = requests.map(sizeKey);
      order.sort((a, b) => compareSizeDesc(keys[a]!, keys[b]!) || a - b);
    }
    // Placed in `order`, claimed in request order (as the store answers).
    const placements = new PlacementsPlan(
      runtime,
      requests.map((request) => ({ request })),
      {
        scriptlet,
        order,
        refusal: (error, index) => {
          const request = requests[index]!;
          return bulkFailure(error, index, request.name === "" ? request.id : request.name);
        },
      },
    );
    const claimed = claimWithRetries(runtime, this.maxAttempts, placements);
    const { result, attempts } = await claimed.catch((error: unknown) => {
      throw storeFailureInBatch(error, requests);
    });
    return { instances: result.instances, placementOrder: order, attempts };
  }
}

/** The bulk answer names the first instance that could not be placed and why. */
export function bulkFailure(error: unknown, index: number, name: string): unknown {
  if (!(error instanceof EngineError)) return error;
  return new EngineError(
    error.kind,
    `Instance "${name}" (index ${index}) could not be placed: ${error.message}`,
    {
      ...(error.details ?? {}),
      index,
      name,
      error: error.message,
    },
  );
}

/** Names the instance of the batch a store-level claim failure is about. */
function storeFailureInBatch(error: unknown, requests: PlacementRequest[]): unknown {
  if (
    !(error instanceof EngineError) ||
    (error.details as { index?: number } | undefined)?.index !== undefined
  ) {
    return error;
  }
  const details = (error.details ?? {}) as {
    reason?: string;
    name?: string;
    project?: string;
    member?: string;
  };
  let index = -1;
  if (details.reason === "name_taken") index = requests.findIndex((one) => one.name === details.name);
  else if (details.reason === "project_limit")
    index = requests.findIndex((one) => one.projectName === details.project);
  if (index < 0) index = 0;
  const one = requests[index]!;
  return bulkFailure(error, index, one.name === "" ? one.id : one.name);
}

/** A "nothing fits" error's groups with the first few members of each named, as decision records keep them. */
function sampled(groups: readonly RejectionGroup[]): RejectionGroup[] {
  return groups.map((group) => ({ ...group, members: group.members.slice(0, REJECTION_SAMPLE) }));
}
