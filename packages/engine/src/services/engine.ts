/**
 * The Engine facade: everything an app (the HTTP server, the CLI's local
 * mode, a simulation) needs, on top of any Store. Construct with
 * `Engine.open({ store })`; the engine hydrates its model from the store's
 * aggregate snapshot and keeps it in step.
 */

import { type Clock, systemClock } from "../base/clock.js";
import { EngineError } from "../base/errors.js";
import { type Logger, silentLogger } from "../base/logger.js";
import { defaultStack } from "../candidates/default-stack.js";
import type { AutomaticRebalanceRun } from "../health/automatic-rebalance.js";
import { HealerDuty } from "../health/healer-duty.js";
import { syncMemberHeartbeats } from "../health/heartbeat-sync.js";
import { Warnings } from "../health/warnings.js";
import { ClusterModel } from "../model/cluster-model.js";
import { EngineEvents } from "../runtime/events.js";
import type { EngineMetricsSnapshot } from "../runtime/metrics.js";
import { awakeSilenceMs } from "../runtime/own-stall.js";
import { EngineRuntime } from "../runtime/runtime.js";
import { inProcessRunner } from "../scriptlet/in-process-runner.js";
import { createScriptletHost } from "../scriptlet/index.js";
import type { ScriptletHost, ScriptletRunner } from "../scriptlet/port.js";
import type { Store } from "../store/port.js";
import type { MemberRecord } from "../store/records.js";
import { CapacityPlanner } from "./capacity.js";
import { Catalog } from "./catalog.js";
import { ClusterMembers } from "./cluster-members.js";
import { DEFAULT_GROUP, withDefaultGroup } from "./default-group.js";
import { Instances } from "./instances.js";
import { Members } from "./members.js";
import { emitEvacuation } from "./move-events.js";
import { Consumers } from "./placement/consumers.js";
import { Providers } from "./placement/providers.js";
import { Rebalancing } from "./rebalancing.js";
import { type EvacuationOutcome, Relocation } from "./relocation.js";
import { ServerConfig } from "./server-config.js";
import { tracked } from "./tracked.js";

/**
 * What `Engine.open` takes: the store and, optionally, how scriptlets run, the clock, the logger
 * and tuning for several engines on one store.
 */
export interface EngineOptions {
  /** Where everything is kept; the engine hydrates from its snapshot. */
  store: Store;
  /** Defaults to the built-in Starlark host; run on the event loop unless `scriptletRunner` is given. */
  scriptletHost?: ScriptletHost;
  /**
   * How scriptlets run. Default: `inProcessRunner(scriptletHost)`, on the
   * caller's thread (no threads needed to embed the engine). berthd passes
   * `createScriptletWorkerPool()`: runs in worker threads, off the event
   * loop. The engine closes it on `close()`.
   */
  scriptletRunner?: ScriptletRunner;
  /** Time source (default: the system clock); inject a `ManualClock` in tests and simulations. */
  clock?: Clock;
  /** Where the engine's log lines go (default: nowhere). */
  logger?: Logger;
  /**
   * Orders ties among equally ranked members by this seed (an integer from
   * 0 to 2^32 - 1; candidates/tie-order.ts) instead of join order,
   * LXD/Incus's tie-break and the default. Servers sharing one database each
   * use a seed of their own (berthd: `--tie-seed`), so their concurrent
   * claims fill different members instead of queueing on the same rows.
   */
  tieSeed?: number;
  /** Claim attempts per placement when racing other writers (default 5; with a change feed, at least 50). */
  maxClaimAttempts?: number;
  /**
   * How often the app calls `tick()` (ms). Given, it lets the engine tell its
   * own stalls (a tick much later than due) from members going quiet, and
   * sets the healer lease's lifetime (see health/healer-duty.ts).
   */
  tickPeriodMs?: number;
}

/** What one `tick()` did: this engine's role, members found offline, healing done or failed. */
export interface TickReport {
  /**
   * "healer": this engine ran offline detection and healing; "standby":
   * another engine sharing the store holds the healer lease, so this one
   * only caught up (the other lists are empty).
   */
  role: "healer" | "standby";
  /** The engine itself was stalled since the last tick (longer than a tick period, at least 1 s); that time is not counted against members. */
  stalled: boolean;
  /** Members without a heartbeat within `cluster.offline_threshold`. */
  offline: string[];
  /** Members healed (instances relocated) in this tick. */
  healed: EvacuationOutcome[];
  /** Members whose healing failed, and why. */
  healingFailed: {
    /** The offline member whose instances could not be relocated. */
    member: string;
    /** The error's message. */
    error: string;
  }[];
  /** The automatic rebalancing run this tick made (`cluster.rebalance.interval`), if one was due. */
  rebalanced?: AutomaticRebalanceRun;
  /** Why that run failed, if it did. */
  rebalanceFailed?: string;
}

/**
 * The placement engine: open it over a Store with `Engine.open`, then use one service per noun
 * (`instances`, `members`, `config`, `catalog`, `rebalance`, `providers`, `consumers`) and call
 * `tick()` periodically.
 */
export class Engine {
  /** Instances and reservations: list, get, create, dry run, bulk create, edits, moves, commits. */
  readonly instances: Instances;
  /** Cluster members: records, heartbeats, state, resources, inventories, evacuation and restore. */
  readonly members: ClusterMembers;
  /** The server config (LXD's `/1.0`). */
  readonly config: ServerConfig;
  /** Rebalancing plans, their application and the imbalance score. */
  readonly rebalance: Rebalancing;
  /** Capacity planning: how many more of a create body fit, where, and what runs out first. */
  readonly capacity: CapacityPlanner;
  /** Cluster groups and their members, projects, profiles, flavors, images, placement groups, resource classes. */
  readonly catalog: Catalog;
  /** Placement resource providers: trees, inventories, traits, aggregates, generations. */
  readonly providers: Providers;
  /** Placement consumers and their allocations on providers. */
  readonly consumers: Consumers;
  private readonly relocation: Relocation;
  /** Members this engine reported offline (a heartbeat takes one off, see ClusterMembers.heartbeat). */
  private readonly knownOffline = new Set<string>();
  /** LXD's warnings (`/1.0/warnings`): derived from this server's view, kept in memory (health/warnings.ts). */
  readonly warnings: Warnings;
  private readonly healerDuty: HealerDuty;

  private constructor(
    private readonly runtime: EngineRuntime,
    maxAttempts: number,
    /**
     * What this engine decides, does and logs, as it happens (see events.ts):
     * berthd turns it into LXD's `/1.0/events`. Emitting costs nothing while
     * nobody subscribes.
     */
    readonly events: EngineEvents,
    tickPeriodMs: number | undefined,
  ) {
    this.healerDuty = new HealerDuty(runtime.store, tickPeriodMs === undefined ? {} : { tickPeriodMs }, () =>
      runtime.nowMs(),
    );
    // The clock's measure of stalls wins; without one, the engine's late ticks are the measure.
    runtime.stalls ??= this.healerDuty.tickStalls;
    // Member traits are made to exist in the traits catalog as a Placement write makes them.
    const members = new Members(runtime, (name) => this.providers.ensureTrait(name));
    this.relocation = new Relocation(runtime, maxAttempts);
    this.catalog = new Catalog(runtime, () => members.profilesChanged());
    this.instances = new Instances(runtime, maxAttempts, events, this.catalog);
    this.members = new ClusterMembers(runtime, members, this.relocation, events, this.knownOffline);
    this.config = new ServerConfig(runtime, members);
    this.rebalance = new Rebalancing(runtime, events);
    this.capacity = new CapacityPlanner(runtime);
    this.providers = new Providers(runtime);
    this.consumers = new Consumers(runtime, this.providers);
    this.warnings = new Warnings(
      runtime.clock,
      () => this.members.list(),
      () => runtime.effective.evacuationWarningThresholdSeconds * 1000,
      () => members.rootPools(),
    );
    runtime.metrics.onScriptletFailure = (error) =>
      this.warnings.scriptletFailed(
        error.message,
        error.details?.scriptletStage === "load" ? "load" : "run",
        typeof error.details?.project === "string" ? error.details.project : "",
      );
  }

  /**
   * Opens an engine over `options.store`: creates the store's defaults when missing (the `default`
   * project, profile and cluster group) and hydrates the model from one snapshot.
   */
  static async open(options: EngineOptions): Promise<Engine> {
    const store = options.store;
    await ensureDefaults(store);
    let snapshot = await store.snapshot();
    // The snapshot's member records say who lacks the default group: no second read of every member.
    if (await joinDefaultGroup(store, snapshot.members)) snapshot = await store.snapshot();
    const stack = defaultStack(options.tieSeed === undefined ? {} : { tieSeed: options.tieSeed });
    const events = new EngineEvents();
    const runtime = new EngineRuntime(
      store,
      ClusterModel.fromSnapshot(snapshot, stack.memberSignature),
      options.clock ?? systemClock,
      // Every log line (scriptlet log_* lines included) is also a logging event.
      events.teeLogger(options.logger ?? silentLogger),
      options.scriptletRunner ?? inProcessRunner(options.scriptletHost ?? createScriptletHost()),
      snapshot.config,
      stack,
      snapshot.feedCursor,
    );
    runtime.providerModel.hydrate(snapshot);
    return new Engine(runtime, options.maxClaimAttempts ?? 5, events, options.tickPeriodMs);
  }

  /** The store this engine writes to. */
  get store(): Store {
    return this.runtime.store;
  }

  /** Re-hydrates the model from the store (e.g. after other processes wrote a lot). */
  async refresh(): Promise<void> {
    await this.runtime.rehydrate();
  }

  /**
   * Picks up what other engines sharing the store committed (claims,
   * members, catalog, config) by reading the store's change feed; with a
   * store that wakes its readers (PostgreSQL LISTEN/NOTIFY) only after a
   * wake-up or when the last read is a second old, so another server's
   * change shows within its notification's latency. Every operation does
   * this first; call it before the synchronous reads (`members.list`,
   * `members.get`, `members.inventories`, ...) when several processes share the store.
   */
  sync(): Promise<void> {
    return this.runtime.sync();
  }

  /**
   * Periodic housekeeping: picks up heartbeats other processes received
   * (re-reading only members not heard from lately, see heartbeat-sync.ts),
   * reports offline ones, and heals members offline longer than
   * `cluster.healing_threshold` by relocating their instances (reason
   * `relocation`); restore brings them back when the member returns.
   */
  async tick(): Promise<TickReport> {
    const runtime = this.runtime;
    const duty = this.healerDuty;
    const sinceLastTick = duty.observeTick(runtime.nowMs());
    const stalledMs = runtime.stalls?.stalledMsWithin(sinceLastTick) ?? 0;
    const stalled = stalledMs > duty.stallSlackMs();
    if (stalled)
      runtime.logger.log("warn", "this server was stalled: that time is not counted against members", {
        stalledMs,
      });
    await runtime.sync();
    // Membership changed in another process: re-hydrate (aggregates) so counts and usage come along.
    if ((await syncMemberHeartbeats(runtime)) === "membership-changed") await this.refresh();
    const report: TickReport = { role: "standby", stalled, offline: [], healed: [], healingFailed: [] };
    if (!(await duty.claimDuty())) return report;
    report.role = "healer";
    const nowMs = runtime.nowMs();
    const offlineMs = runtime.effective.offlineThresholdSeconds * 1000;
    const healingMs = runtime.effective.healingThresholdSeconds * 1000;
    for (const member of runtime.model.allMembers()) {
      // Silence while this engine could not run (or before it started) is not the member's (own-stall.ts).
      const silentFor = awakeSilenceMs(duty.silenceMs(member.heartbeatMs, nowMs), runtime.stalls);
      if (silentFor <= offlineMs) {
        if (this.knownOffline.delete(member.name))
          runtime.logger.log("info", "member back online", { member: member.name });
        continue;
      }
      report.offline.push(member.name);
      if (!this.knownOffline.has(member.name)) {
        this.knownOffline.add(member.name);
        runtime.logger.log("warn", "member offline", { member: member.name });
      }
      if (healingMs > 0 && !member.record.evacuated && silentFor > healingMs) {
        try {
          const healed = await tracked(
            runtime.metrics,
            "relocation",
            () => this.relocation.evacuate(member.name, "relocation"),
            (outcome) => outcome.moved.length,
          );
          emitEvacuation(this.events, healed, "relocation");
          report.healed.push(healed);
          runtime.logger.log("warn", "healed offline member", { member: member.name });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          report.healingFailed.push({ member: member.name, error: message });
          runtime.logger.log("error", "healing failed", { member: member.name, error: message });
        }
      }
    }
    // Incus's automatic rebalancing, on the same one server at a time (services/rebalancing.ts).
    try {
      const rebalanced = await this.rebalance.runIfDue();
      if (rebalanced !== undefined) report.rebalanced = rebalanced;
    } catch (error) {
      report.rebalanceFailed = error instanceof Error ? error.message : String(error);
      runtime.logger.log("error", "automatic rebalancing failed", { error: report.rebalanceFailed });
    }
    return report;
  }

  /** Gives up the healer lease (call before closing the store): another server takes over at once. */
  standDown(): Promise<void> {
    return this.healerDuty.standDown();
  }

  /** Stops what the scriptlet runner started (worker threads); the store is the caller's to close. */
  close(): Promise<void> {
    this.runtime.detach();
    return this.runtime.scriptlets.close();
  }

  /**
   * What the engine counted (see metrics.ts): placements, failures by kind
   * and latency per operation, scriptlet runs by outcome and their steps,
   * claim retries. The only count of these: exporters read it.
   */
  metrics(): EngineMetricsSnapshot {
    return this.runtime.metrics.snapshot();
  }
}

/** Every Berth store has the `default` project and its `default` profile, as LXD does. */
async function ensureDefaults(store: Store): Promise<void> {
  const ignoreConflict = (error: unknown) => {
    if (!(error instanceof EngineError && error.kind === "conflict")) throw error;
  };
  if ((await store.projects.get({ name: "default" })) === undefined) {
    await store.projects
      .create({ name: "default", description: "Default Berth project", config: {} })
      .catch(ignoreConflict);
  }
  if ((await store.groups.get({ name: DEFAULT_GROUP })) === undefined) {
    await store.groups
      .create({ name: DEFAULT_GROUP, description: "Default cluster group" })
      .catch(ignoreConflict);
  }
  if ((await store.profiles.get({ project: "default", name: "default" })) === undefined) {
    await store.profiles
      .create({
        project: "default",
        name: "default",
        description: "Default Berth profile",
        config: {},
        devices: {},
      })
      .catch(ignoreConflict);
  }
}

/**
 * Members joined before the default group existed join it now (idempotent: only those missing
 * it). True when any did: the snapshot they were read from is stale then.
 */
async function joinDefaultGroup(store: Store, members: readonly MemberRecord[]): Promise<boolean> {
  const missing = members.filter((member) => !member.groups.includes(DEFAULT_GROUP));
  for (const member of missing) {
    await store.updateMember(member.name, { groups: withDefaultGroup(member.groups) });
  }
  return missing.length > 0;
}
