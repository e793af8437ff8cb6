/**
 * The Engine facade: everything an app (the HTTP server, the CLI's local
 * mode, a simulation) needs, on top of any Store. Construct with
 * `Engine.open({ store })`; the engine hydrates its model from the store's
 * aggregate snapshot and keeps it in step.
 */

import {
  checkServerConfigCombination,
  checkServerConfigValue,
  type InstancePut,
  type InstancesPost,
  serverConfigErrorMessage,
} from "@berth/api-types";
import { type Clock, systemClock } from "../base/clock.js";
import { EngineError, invalid } from "../base/errors.js";
import { type Logger, silentLogger } from "../base/logger.js";
import { defaultStack } from "../candidates/default-stack.js";
import { CatalogCache } from "../expand/catalog-cache.js";
import { expandInstances, type InstanceExpansion } from "../expand/instance-expansion.js";
import { HealerDuty } from "../health/healer-duty.js";
import { syncMemberHeartbeats } from "../health/heartbeat-sync.js";
import { Warnings } from "../health/warnings.js";
import { ClusterModel } from "../model/cluster-model.js";
import { normalizedConfigPatch } from "../rules/writes/config-patch.js";
import { EngineEvents } from "../runtime/events.js";
import type { EngineMetricsSnapshot, PlacementOperation } from "../runtime/metrics.js";
import { awakeSilenceMs } from "../runtime/own-stall.js";
import { EngineRuntime } from "../runtime/runtime.js";
import { inProcessRunner } from "../scriptlet/in-process-runner.js";
import { createScriptletHost } from "../scriptlet/index.js";
import type { ScriptletHost, ScriptletRunner } from "../scriptlet/port.js";
import { cloneJson } from "../store/clone.js";
import type { InstanceFilter, Store } from "../store/port.js";
import type { ConfigRecord, InstanceRecord } from "../store/records.js";
import { Catalog } from "./catalog.js";
import { DEFAULT_GROUP, withDefaultGroup } from "./default-group.js";
import type { DryRunOutcome } from "./dry-run.js";
import { InstanceOps, type MoveOutcome } from "./instance-ops.js";
import { type MemberInfo, type MemberInput, Members, type MemberUpdate } from "./members.js";
import { Consumers } from "./placement/consumers.js";
import { Providers } from "./placement/providers.js";
import {
  type BulkOrder,
  type BulkOutcome,
  type CreateOptions,
  type DryRunOptions,
  type PlacementOutcome,
  Placer,
} from "./placer.js";
import { type RebalanceOptions, type RebalancePlan, Rebalancer } from "./rebalance.js";
import { type EvacuationOutcome, type MovedInstance, Relocation } from "./relocation.js";
import {
  checkScriptletValue,
  SCRIPTLET_KEY,
  type ScriptletProblem,
  scriptletProblem,
} from "./scriptlet-value.js";

export interface EngineOptions {
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
  clock?: Clock;
  logger?: Logger;
  /**
   * Orders ties among equally ranked members by this seed (an integer from
   * 0 to 2^32 - 1; pipeline/stack/tie-order.ts) instead of join order,
   * LXD/Incus's tie-break and the default. Servers sharing one database each
   * use a seed of their own (berthd: `--tie-seed`), so their concurrent
   * claims fill different members instead of queueing on the same rows.
   */
  tieSeed?: number;
  /** Claim attempts per placement when racing other writers (default 5). */
  maxClaimAttempts?: number;
  /**
   * How often the app calls `tick()` (ms). Given, it lets the engine tell its
   * own stalls (a tick much later than due) from members going quiet, and
   * sets the healer lease's lifetime (see engine/healer-duty.ts).
   */
  tickPeriodMs?: number;
}

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
  healingFailed: { member: string; error: string }[];
}

const RATIO_KEYS = [
  "scheduler.cpu_allocation_ratio",
  "scheduler.ram_allocation_ratio",
  "scheduler.disk_allocation_ratio",
];

export class Engine {
  readonly members: Members;
  readonly catalog: Catalog;
  /** Placement resource providers: trees, inventories, traits, aggregates, generations. */
  readonly providers: Providers;
  /** Placement consumers and their allocations on providers. */
  readonly consumers: Consumers;
  private readonly placer: Placer;
  private readonly instanceOps: InstanceOps;
  private readonly relocation: Relocation;
  private readonly rebalancer: Rebalancer;
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
    this.members = new Members(runtime);
    this.catalog = new Catalog(runtime);
    this.providers = new Providers(runtime);
    this.consumers = new Consumers(runtime, this.providers);
    this.placer = new Placer(runtime, maxAttempts);
    this.instanceOps = new InstanceOps(runtime, maxAttempts);
    this.relocation = new Relocation(runtime, maxAttempts);
    this.rebalancer = new Rebalancer(runtime);
    this.warnings = new Warnings(runtime.clock, () => this.listMembers());
  }

  static async open(options: EngineOptions): Promise<Engine> {
    const store = options.store;
    await ensureDefaults(store);
    const snapshot = await store.snapshot();
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
   * this first; call it before the synchronous reads (`listMembers`,
   * `getMember`, `inventories`, ...) when several processes share the store.
   */
  sync(): Promise<void> {
    return this.runtime.sync();
  }

  // --- server config -----------------------------------------------------------------

  async getConfig(): Promise<ConfigRecord> {
    await this.runtime.sync();
    return cloneJson(this.runtime.config);
  }

  /**
   * PATCH semantics (`null` or "" removes a key). Every value is checked
   * (api-types' rules); a scriptlet is compiled and signature-checked by the
   * scriptlet host first, so a bad one never replaces the one in force.
   * `""` unsets a key as null does (LXD's rule, applied here once:
   * write-rules/config-patch.ts), so callers pass values as given.
   */
  async setConfig(
    given: Record<string, string | null | undefined>,
    expectedVersion?: number,
  ): Promise<ConfigRecord> {
    const patch = normalizedConfigPatch(given);
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) continue;
      const reason = checkServerConfigValue(key, value);
      if (reason !== undefined) throw invalid(serverConfigErrorMessage(key, value, reason));
    }
    const merged: Record<string, string | undefined> = { ...this.runtime.config.values };
    for (const [key, value] of Object.entries(patch)) merged[key] = value ?? undefined;
    const clash = checkServerConfigCombination(merged);
    if (clash !== undefined) throw invalid(serverConfigErrorMessage(clash.key, clash.value, clash.reason));
    const scriptlet = patch[SCRIPTLET_KEY];
    if (scriptlet !== undefined && scriptlet !== null)
      await checkScriptletValue(this.runtime.scriptlets, scriptlet);
    const next = await this.runtime.store.setConfig(patch, expectedVersion);
    this.runtime.setConfig(next);
    if (RATIO_KEYS.some((key) => key in patch)) await this.members.rederiveAll();
    return cloneJson(next);
  }

  /**
   * What setting `instances.placement.scriptlet` to `source` would say,
   * without setting it: undefined when it would be accepted, else the
   * reason and where (line and column when the error has a position).
   * The same check a config set and a dry run with a proposed scriptlet
   * run (compile, top level, entry point signature), for editors that
   * check as the operator types.
   */
  checkScriptlet(source: string): Promise<ScriptletProblem | undefined> {
    return scriptletProblem(this.runtime.scriptlets, source);
  }

  /** PUT semantics: the given values replace the whole config (keys left out, or `""`, are unset). */
  async replaceConfig(
    values: Record<string, string | undefined>,
    expectedVersion?: number,
  ): Promise<ConfigRecord> {
    const current = await this.getConfig();
    const patch: Record<string, string | null | undefined> = {};
    for (const key of Object.keys(current.values)) patch[key] = null;
    for (const [key, value] of Object.entries(values)) if (value !== undefined) patch[key] = value;
    return this.setConfig(patch, expectedVersion);
  }

  // --- members -----------------------------------------------------------------------------

  listMembers(): MemberInfo[] {
    return this.members.list();
  }
  getMember(name: string): MemberInfo {
    return this.members.info(name);
  }
  createMember(input: MemberInput): Promise<MemberInfo> {
    return this.members.create(input);
  }
  updateMember(name: string, update: MemberUpdate, expectedGeneration?: number): Promise<MemberInfo> {
    return this.members.update(name, update, expectedGeneration);
  }
  /** LXD's PATCH of a member: `config` merged key by key into the current one, written over the version read. */
  patchMember(name: string, changes: MemberUpdate): Promise<MemberInfo> {
    return this.members.patch(name, changes);
  }
  /** Makes exactly `members` the members of cluster group `group`, all at once (not_found: nothing changes). */
  setGroupMembers(group: string, members: readonly string[]): Promise<void> {
    return this.members.setGroupMembers(group, members);
  }
  /** Renames a member that hosts nothing (conflict otherwise). */
  renameMember(name: string, newName: string): Promise<MemberInfo> {
    return this.members.rename(name, newName);
  }
  deleteMember(name: string): Promise<void> {
    return this.members.delete(name);
  }
  /** `PUT .../state`: records a heartbeat (and the reported state). */
  heartbeat(name: string, state?: Record<string, unknown>): Promise<MemberInfo> {
    const result = this.members.heartbeat(name, state);
    this.knownOffline.delete(name);
    return result;
  }
  getMemberState(name: string): Record<string, unknown> {
    return cloneJson(this.members.info(name).record.state ?? {});
  }
  getMemberResources(name: string): Record<string, unknown> {
    return cloneJson(this.members.info(name).record.resources ?? {});
  }
  setMemberResources(name: string, resources: Record<string, unknown>): Promise<MemberInfo> {
    return this.members.setResources(name, resources);
  }
  async evacuateMember(name: string): Promise<EvacuationOutcome> {
    const outcome = await this.track(
      "evacuation",
      () => this.relocation.evacuate(name, "evacuation"),
      (outcome) => outcome.moved.length,
    );
    this.emitEvacuation(outcome, "evacuation");
    return outcome;
  }
  async restoreMember(name: string): Promise<{ member: string; moved: MovedInstance[] }> {
    const outcome = await this.relocation.restore(name);
    this.emitMoves(outcome.moved, "restore");
    this.events.lifecycle(() => ({
      action: "cluster-member-restored",
      member: name,
      context: { moved: outcome.moved.length },
    }));
    return outcome;
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
          const healed = await this.track(
            "relocation",
            () => this.relocation.evacuate(member.name, "relocation"),
            (outcome) => outcome.moved.length,
          );
          this.emitEvacuation(healed, "relocation");
          report.healed.push(healed);
          runtime.logger.log("warn", "healed offline member", { member: member.name });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          report.healingFailed.push({ member: member.name, error: message });
          runtime.logger.log("error", "healing failed", { member: member.name, error: message });
        }
      }
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

  inventories(name: string) {
    return this.members.inventories(name);
  }
  setInventories(
    name: string,
    inventories: Parameters<Members["setInventories"]>[1],
    expectedGeneration: number,
    replaceAll = false,
  ) {
    return this.members.setInventories(name, inventories, expectedGeneration, replaceAll);
  }
  deleteInventory(name: string, resourceClass: string, expectedGeneration: number) {
    return this.members.setInventories(name, { [resourceClass]: null }, expectedGeneration);
  }

  // --- instances ---------------------------------------------------------------------------

  listInstances(filter: InstanceFilter = {}): Promise<InstanceRecord[]> {
    return this.runtime.store.listInstances(filter);
  }
  /** By name, or by UUID (reservations). */
  getInstance(project: string, ref: string): Promise<InstanceRecord> {
    return this.instanceOps.find(project, ref);
  }
  /** Places and claims one instance (or, with `forthcoming: true`, a reservation). */
  async createInstance(body: InstancesPost, options: CreateOptions = {}): Promise<PlacementOutcome> {
    const outcome = await this.track(body.forthcoming === true ? "reservation" : "create", () =>
      this.placer.create(body, options),
    );
    this.events.lifecycle(() => createdEvent(outcome.instance, outcome.decidedBy));
    return outcome;
  }
  /**
   * Decides without claiming: decision, candidates, scriptlet logs and cost.
   * A placement that would fail is a "rejected" decision, not a throw; only
   * a bad request (an invalid `options.scriptletSource`, which dry-runs
   * that scriptlet instead of the configured one) throws.
   */
  dryRun(body: InstancesPost, options: DryRunOptions = {}): Promise<DryRunOutcome> {
    return this.track(
      "dry_run",
      () => this.placer.dryRun(body, options),
      () => 1,
      (outcome) => (outcome.decision.outcome === "rejected" ? outcome.decision.error : undefined),
    );
  }
  /** All-or-nothing bulk create (see Placer.bulk). */
  async bulkCreate(
    bodies: InstancesPost[],
    options: CreateOptions & { order?: BulkOrder } = {},
  ): Promise<BulkOutcome> {
    const outcome = await this.track(
      "bulk",
      () => this.placer.bulk(bodies, options),
      (outcome) => outcome.instances.length,
    );
    if (this.events.active)
      for (const record of outcome.instances) this.events.lifecycle(() => createdEvent(record, "bulk"));
    return outcome;
  }
  async updateInstance(
    project: string,
    ref: string,
    changes: InstancePut,
    mode: "put" | "patch" = "patch",
  ): Promise<InstanceRecord> {
    const record = await this.instanceOps.update(project, ref, changes, mode);
    this.events.lifecycle(() => ({
      action: "instance-updated",
      project,
      instance: record.name,
      context: { location: record.location },
    }));
    return record;
  }
  async renameInstance(project: string, ref: string, newName: string): Promise<InstanceRecord> {
    const record = await this.instanceOps.rename(project, ref, newName);
    this.events.lifecycle(() => ({
      action: "instance-renamed",
      project,
      instance: record.name,
      context: { old_name: ref, location: record.location },
    }));
    return record;
  }
  async moveInstance(
    project: string,
    ref: string,
    target: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<MoveOutcome> {
    const outcome = await this.track("move", () => this.instanceOps.move(project, ref, target, options));
    this.events.lifecycle(() => ({
      action: "instance-moved",
      project,
      instance: outcome.instance.name,
      context: {
        from: outcome.from,
        to: outcome.instance.location,
        reason: "move",
        decided_by: outcome.decidedBy,
      },
    }));
    return outcome;
  }
  async deleteInstance(project: string, ref: string): Promise<void> {
    await this.instanceOps.delete(project, ref);
    this.events.lifecycle(() => ({ action: "instance-deleted", project, instance: ref, context: {} }));
  }
  /**
   * `expanded_config` / `expanded_devices` of a stored instance: its
   * profiles as they are now, read where its project keeps them (LXD
   * `features.profiles`: the default project's unless the project has its
   * own), the same rule a placement applies.
   */
  async expandedInstance(record: InstanceRecord): Promise<InstanceExpansion> {
    return (await this.expandedInstances([record]))[0]!;
  }
  /** `expandedInstance` of many records, reading each project and its profiles once. */
  async expandedInstances(records: readonly InstanceRecord[]): Promise<InstanceExpansion[]> {
    return expandInstances(records, new CatalogCache(this.runtime), (name) => this.catalog.getProject(name));
  }

  /** Reservation -> real instance; `changes` (patch semantics) may resize it, and only growth is re-checked. */
  async commitReservation(
    project: string,
    ref: string,
    options: { name?: string; changes?: InstancePut } = {},
  ): Promise<InstanceRecord> {
    const record = await this.track("commit", () => this.instanceOps.commit(project, ref, options));
    this.events.lifecycle(() => ({
      action: "instance-reservation-committed",
      project,
      instance: record.name,
      context: { location: record.location, uuid: record.id },
    }));
    return record;
  }

  /** One `instance-moved` event per instance an evacuation, healing or restore moved. */
  private emitMoves(moved: readonly MovedInstance[], reason: string): void {
    if (!this.events.active) return;
    for (const move of moved)
      this.events.lifecycle(() => ({
        action: "instance-moved",
        project: move.project,
        instance: move.name,
        context: { from: move.from, to: move.to, reason },
      }));
  }

  private emitEvacuation(outcome: EvacuationOutcome, reason: "evacuation" | "relocation"): void {
    this.emitMoves(outcome.moved, reason);
    this.events.lifecycle(() => ({
      action: "cluster-member-evacuated",
      member: outcome.member,
      context: { reason, moved: outcome.moved.length, stayed: outcome.stayed.length },
    }));
  }

  /**
   * What the engine counted (see metrics.ts): placements, failures by kind
   * and latency per operation, scriptlet runs by outcome and their steps,
   * claim retries. The only count of these: exporters read it.
   */
  metrics(): EngineMetricsSnapshot {
    return this.runtime.metrics.snapshot();
  }

  /**
   * Runs one placement-making operation and counts it: instances placed
   * (`placed`, 1 by default) or its failure by error kind (a thrown
   * EngineError, or one the outcome reports through `failure`), and the
   * time it took.
   */
  private async track<T>(
    operation: PlacementOperation,
    run: () => Promise<T>,
    placed: (value: T) => number = () => 1,
    failure: (value: T) => EngineError | undefined = () => undefined,
  ): Promise<T> {
    const metrics = this.runtime.metrics;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const value = await run();
      const failed = failure(value);
      if (failed === undefined) metrics.placed(operation, placed(value), seconds());
      else metrics.failed(operation, failed.kind, seconds());
      return value;
    } catch (error) {
      metrics.failed(operation, error instanceof EngineError ? error.kind : "internal", seconds());
      if (error instanceof EngineError && error.kind === "scriptlet")
        this.warnings.scriptletFailed(error.message);
      throw error;
    }
  }

  // --- rebalancing -------------------------------------------------------------------------

  imbalanceScore(): number {
    return this.rebalancer.score();
  }
  async planRebalance(options: RebalanceOptions = {}): Promise<RebalancePlan> {
    return (await this.rebalancer.plan(options)).plan;
  }
  async applyRebalance(options: RebalanceOptions = {}): Promise<RebalancePlan> {
    const plan = await this.track(
      "rebalance",
      () => this.rebalancer.apply(options),
      (plan) => plan.moves.length,
    );
    if (plan.applied) this.emitMoves(plan.moves, "rebalance");
    return plan;
  }
}

/** The lifecycle event of a placed instance or reservation. */
function createdEvent(record: InstanceRecord, decidedBy: string) {
  return {
    action: record.forthcoming ? ("instance-reserved" as const) : ("instance-created" as const),
    project: record.project,
    instance: record.name,
    context: { location: record.location, decided_by: decidedBy, uuid: record.id },
  };
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
  // Members joined before the default group existed join it now (idempotent: only those missing it).
  for (const member of await store.listMembers()) {
    if (!member.groups.includes(DEFAULT_GROUP)) {
      await store.updateMember(member.name, { groups: withDefaultGroup(member.groups) });
    }
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
