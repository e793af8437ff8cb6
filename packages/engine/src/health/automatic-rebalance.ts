/**
 * One run of Incus's automatic rebalancing (`clusterRebalance` in incusd's
 * api_cluster_rebalance.go), on Berth's ledger:
 *
 * 1. Online, non-evacuated members are scored (load-score.ts) and grouped
 *    by architecture, busiest first.
 * 2. A group with at least two members whose busiest member scores above 0
 *    and whose least busy one is at least `cluster.rebalance.threshold`
 *    percent below it gets relieved; at most `cluster.rebalance.batch`
 *    instances move per run, over all groups.
 * 3. Only instances on the busiest member move, one at a time: those that
 *    can live-migrate (live-migration.ts) and were not moved within
 *    `cluster.rebalance.cooldown` (`volatile.rebalance.last_move`).
 * 4. Each goes to a less loaded member of its group that automatic
 *    placement would accept for it (the stack's filters: project
 *    restrictions, scheduler rules, architecture, traits, capacity): the
 *    least loaded one, or the one the scriptlet picks (reason `rebalance`,
 *    candidates from least to most loaded). A scriptlet that refuses keeps
 *    the instance where it is.
 * 5. Incus aims at the midpoint of the two members' scores: a target is
 *    not loaded past it, and an instance that would push it there stays.
 *
 * Berth's additions, for safety: instances of a strict placement group and
 * mirrored (two-member) instances stay; every move is its own claim, checked
 * again on its member inside the claim (never an overcommit), recorded with
 * a decision record, and sets `volatile.rebalance.last_move` (unix seconds)
 * in the same write. A dry run plans the same way and claims nothing.
 */
import { expiryAfter, type RebalanceSettings } from "@berth/api-types";
import { EngineError } from "../base/errors.js";
import { claimWithRetries } from "../claim/claim.js";
import { EditsPlan } from "../claim/edits.js";
import { decide, type ScriptletSetup } from "../decide/decide.js";
import { movedDecision } from "../decide/record.js";
import { scriptletSetup } from "../decide/scriptlet-setup.js";
import { CatalogCache } from "../expand/catalog-cache.js";
import { resourcesOn } from "../expand/member-demand.js";
import type { PlacementRequest } from "../expand/request.js";
import { expandStored } from "../expand/stored.js";
import type { MemberState } from "../model/member-state.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import type { InstanceRecord } from "../store/records.js";
import { placementView } from "../views/views.js";
import { liveMigrationRefusal } from "./live-migration.js";
import { differencePercent, loadScore, type MemberUsage, usageOf } from "./load-score.js";

/** Where Incus records an automatic move (unix seconds). */
export const LAST_MOVE_KEY = "volatile.rebalance.last_move";

export interface ScoredMember {
  name: string;
  score: number;
}

/** One architecture's members as the run saw them. */
export interface RebalanceGroup {
  /** The architecture name its members share (e.g. `x86_64`): instances only move within it. */
  architecture: string;
  /** Busiest first. */
  members: ScoredMember[];
  /** How far the least busy member is below the busiest, in percent of the busiest's score. */
  differencePercent: number;
  /** The difference reached the threshold (and the busiest member is loaded). */
  triggered: boolean;
}

/** One instance the run moved (or, in a dry run, would move) off a busy member. */
export interface AutomaticMove {
  /** The instance's id. */
  id: string;
  /** The instance's project. */
  project: string;
  /** The instance's name. */
  name: string;
  /** The busy member it leaves. */
  from: string;
  /** The less loaded member it goes to. */
  to: string;
  /** The source's score, the target's before the run and the target's expected after this move. */
  fromScore: number;
  /** The target's load score before the run. */
  toScoreBefore: number;
  /** The target's load score expected once this move lands. */
  toScoreAfter: number;
}

/**
 * Why an instance on a relieved member stayed: it cannot live-migrate, moved within
 * `cluster.rebalance.cooldown`, belongs to a strict placement group, is mirrored, no member would
 * take it, the scriptlet refused, moving it would overshoot the midpoint, the batch was full, or
 * its claim failed.
 */
export type StayReason =
  | "not-live-migratable"
  | "cooling-down"
  | "placement-group"
  | "mirrored"
  | "no-target"
  | "scriptlet"
  | "balanced"
  | "batch-full"
  | "claim-failed";

/** An instance on a relieved member that the run left where it is. */
export interface StayedInstance {
  /** The instance's id. */
  id: string;
  /** The instance's project. */
  project: string;
  /** The instance's name. */
  name: string;
  /** The busy member it stays on. */
  member: string;
  /** Why it stayed, as a code. */
  reason: StayReason;
  /** The reason in words. */
  message: string;
}

/** What one automatic rebalancing run (or its dry run) saw, moved and left. */
export interface AutomaticRebalanceRun {
  /** When the run was (or would be) made, ISO 8601. */
  at: string;
  /** The `cluster.rebalance.*` settings the run applied (threshold, batch, cooldown). */
  settings: RebalanceSettings;
  /** Each architecture's members and scores, busiest group first. */
  groups: RebalanceGroup[];
  /** The moves, in the order they were made (or planned). */
  moves: AutomaticMove[];
  /** Instances on a relieved member that stayed, and why. */
  stayed: StayedInstance[];
  /** False for a dry run. */
  applied: boolean;
}

interface Scored {
  member: MemberState;
  score: number;
}

/** Claim attempts per move when racing other writers. */
const MOVE_ATTEMPTS = 3;

function byProjectAndName(a: InstanceRecord, b: InstanceRecord): number {
  return a.project < b.project
    ? -1
    : a.project > b.project
      ? 1
      : a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0;
}

export class AutomaticRebalance {
  private readonly moves: AutomaticMove[] = [];
  private readonly stayed: StayedInstance[] = [];
  private readonly catalog: CatalogCache;
  private readonly nowMs: number;
  private readonly settings: RebalanceSettings;
  /** Set up once, when the first instance needs a target (a run that relieves nobody runs no scriptlet). */
  private scriptlet: Promise<ScriptletSetup | null> | undefined;
  /** Targets' usage and score as this run's moves add to them (Incus's runningUsage/runningScore). */
  private readonly running = new Map<string, { usage: MemberUsage; score: number }>();

  private constructor(
    private readonly runtime: EngineRuntime,
    private readonly apply: boolean,
  ) {
    this.catalog = new CatalogCache(runtime);
    this.nowMs = runtime.nowMs();
    this.settings = runtime.effective.rebalance;
  }

  /** Runs (`apply`) or plans (dry run) one automatic rebalancing pass. */
  static async run(runtime: EngineRuntime, apply: boolean): Promise<AutomaticRebalanceRun> {
    await runtime.sync();
    return new AutomaticRebalance(runtime, apply).pass();
  }

  private async pass(): Promise<AutomaticRebalanceRun> {
    const groups: RebalanceGroup[] = [];
    for (const [architecture, members] of this.scoredGroups()) {
      if (members.length < 2) continue;
      const busiest = members[0]!;
      const difference = differencePercent(busiest.score, members.at(-1)!.score);
      const triggered = busiest.score > 0 && difference >= this.settings.thresholdPercent;
      groups.push({
        architecture,
        members: members.map(({ member, score }) => ({ name: member.name, score })),
        differencePercent: difference,
        triggered,
      });
      if (triggered) await this.relieve(busiest, members.slice(1));
    }
    return {
      at: new Date(this.nowMs).toISOString(),
      settings: this.settings,
      groups,
      moves: this.moves,
      stayed: this.stayed,
      applied: this.apply,
    };
  }

  /** Schedulable members by architecture, busiest first (ties in join order). */
  private scoredGroups(): Map<string, Scored[]> {
    const { nowMs, offlineThresholdMs } = this.runtime.timing();
    const groups = new Map<string, Scored[]>();
    for (const member of this.runtime.model.allMembers()) {
      if (member.record.evacuated || !member.isOnline(nowMs, offlineThresholdMs)) continue;
      const usage = usageOf(member);
      const score = loadScore(usage);
      this.running.set(member.name, { usage, score });
      const group = groups.get(member.record.architecture) ?? [];
      group.push({ member, score });
      groups.set(member.record.architecture, group);
    }
    for (const group of groups.values()) group.sort((a, b) => b.score - a.score);
    return groups;
  }

  /** Moves instances off `source` to the less loaded of `others` (Incus's clusterRebalanceServers). */
  private async relieve(source: Scored, others: Scored[]): Promise<void> {
    const lessLoaded = others.filter((other) => other.score < source.score);
    if (lessLoaded.length === 0) return;
    const located = await this.runtime.store.listInstances({
      location: source.member.name,
      forthcoming: false,
    });
    const movable: { record: InstanceRecord; request: PlacementRequest }[] = [];
    for (const record of located.sort(byProjectAndName)) {
      const request = await expandStored(this.runtime, this.catalog, record, {
        reason: "rebalance",
        excluded: new Set([record.location]),
      });
      const why = this.whyNotMovable(record, request);
      if (why !== undefined) this.stay(record, why[0], why[1]);
      else movable.push({ record, request });
    }
    for (const { record, request } of movable) {
      if (this.moves.length >= this.settings.batch) {
        this.stay(
          record,
          "batch-full",
          `this run already moves ${this.moves.length} (cluster.rebalance.batch)`,
        );
        continue;
      }
      await this.moveOne(source, lessLoaded, record, request);
    }
  }

  private whyNotMovable(record: InstanceRecord, request: PlacementRequest): [StayReason, string] | undefined {
    const refusal = liveMigrationRefusal({
      type: record.type,
      expandedConfig: request.expandedConfig,
      expandedDevices: request.expandedDevices,
    });
    if (refusal !== undefined) return ["not-live-migratable", `it cannot live-migrate: ${refusal}`];
    const lastMove = record.config[LAST_MOVE_KEY];
    if (lastMove !== undefined && lastMove !== "") {
      const movedAt = /^-?\d+$/.test(lastMove) ? Number(lastMove) * 1000 : Number.NaN;
      if (Number.isNaN(movedAt)) return ["cooling-down", `its ${LAST_MOVE_KEY} "${lastMove}" is not a time`];
      const ends = expiryAfter(movedAt, this.settings.cooldown) ?? movedAt;
      if (this.nowMs < ends)
        return [
          "cooling-down",
          `it was moved at ${new Date(movedAt).toISOString()}; its cooldown (${this.settings.cooldown}) ends at ${new Date(ends).toISOString()}`,
        ];
    }
    if (record.secondary !== undefined)
      return ["mirrored", `it is mirrored on "${record.secondary}": it moves only by failover`];
    if (request.groupPolicy?.rigor === "strict")
      return ["placement-group", `its placement group "${request.groupPolicy.name}" is strict`];
    return undefined;
  }

  private async moveOne(
    source: Scored,
    lessLoaded: Scored[],
    record: InstanceRecord,
    request: PlacementRequest,
  ): Promise<void> {
    const timing = this.runtime.timing();
    // Incus filters by project restrictions; Berth asks every filter automatic placement asks.
    const allowed = lessLoaded.filter(
      (other) => this.runtime.stack.check(other.member, request, timing) === undefined,
    );
    if (allowed.length === 0) {
      this.stay(record, "no-target", "no less loaded member of its architecture can take it");
      return;
    }
    // The scriptlet sees them from least to most loaded; without one the least loaded is taken.
    const ordered = allowed.map((other) => other.member).reverse();
    this.scriptlet ??= scriptletSetup(this.runtime);
    const scriptlet = await this.scriptlet;
    let target: MemberState;
    try {
      target = (
        await decide(
          { candidates: ordered, rejected: [] },
          request,
          scriptlet,
          timing,
          placementView(request, false),
        )
      ).member;
    } catch (error) {
      if (!(error instanceof EngineError) || error.kind !== "scriptlet") throw error;
      this.stay(record, "scriptlet", error.message);
      return;
    }
    const before = lessLoaded.find((other) => other.member === target)!.score;
    const running = this.running.get(target.name)!;
    const midpoint = Math.trunc((source.score + before) / 2);
    if (running.score >= midpoint) {
      this.stay(
        record,
        "balanced",
        `"${target.name}" already reached score ${running.score}, the midpoint of this run`,
      );
      return;
    }
    const arriving = resourcesOn(request, target.record);
    const added = { cpu: arriving.VCPU ?? 0, memory: arriving.MEMORY_MB ?? 0 };
    const expected = loadScore(running.usage, added);
    if (expected >= midpoint) {
      this.stay(
        record,
        "balanced",
        `it would load "${target.name}" to score ${expected}, past the midpoint ${midpoint}`,
      );
      return;
    }
    if (this.apply) {
      try {
        await this.claimMove(record, request, target.name);
      } catch (error) {
        if (!(error instanceof EngineError)) throw error;
        this.stay(record, "claim-failed", error.message);
        return;
      }
    }
    running.usage = {
      ...running.usage,
      cpuUsed: running.usage.cpuUsed + added.cpu,
      memoryUsed: running.usage.memoryUsed + added.memory,
    };
    running.score = expected;
    this.moves.push({
      id: record.id,
      project: record.project,
      name: record.name,
      from: source.member.name,
      to: target.name,
      fromScore: source.score,
      toScoreBefore: before,
      toScoreAfter: expected,
    });
  }

  /** One move in one claim: checked on its member again, with the time of the move on the record. */
  private async claimMove(record: InstanceRecord, request: PlacementRequest, to: string): Promise<void> {
    const runtime = this.runtime;
    const stamped: InstanceRecord = {
      ...record,
      config: { ...record.config, [LAST_MOVE_KEY]: String(Math.trunc(this.nowMs / 1000)) },
    };
    const at = new Date(this.nowMs).toISOString();
    const decision = movedDecision("rebalance", to, at, runtime.model.allMembers().length);
    const move = { request, record: stamped, member: to, origin: record.origin, decision, checked: {} };
    await claimWithRetries(runtime, MOVE_ATTEMPTS, new EditsPlan(runtime, { moves: [move] }));
  }

  private stay(record: InstanceRecord, reason: StayReason, message: string): void {
    this.stayed.push({
      id: record.id,
      project: record.project,
      name: record.name,
      member: record.location,
      reason,
      message,
    });
  }
}
