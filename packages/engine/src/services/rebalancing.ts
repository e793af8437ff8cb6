/**
 * `engine.rebalance`: LXD's `/1.0/cluster/rebalance` and Incus's automatic
 * rebalancing. Plans and applies with the Rebalancer (rebalance.ts); an
 * applied plan is counted and its moves announced. Automatic runs
 * (health/automatic-rebalance.ts) come from the engine's tick, on the
 * engine holding the healer lease, every `cluster.rebalance.interval`
 * minutes (health/rebalance-schedule.ts); `automaticDryRun()` shows what
 * the next one would do.
 */

import { AutomaticRebalance, type AutomaticRebalanceRun } from "../health/automatic-rebalance.js";
import { RebalanceSchedule } from "../health/rebalance-schedule.js";
import type { EngineEvents } from "../runtime/events.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import { emitMoves } from "./move-events.js";
import { type RebalanceOptions, type RebalancePlan, Rebalancer } from "./rebalance.js";
import { tracked } from "./tracked.js";

/** A dry run of the next automatic run, with when it is due on this server. */
export interface AutomaticRebalancePreview extends AutomaticRebalanceRun {
  /** ISO 8601; null while disabled, or when this server does not run them (another holds the healer lease) or has not armed its schedule yet. */
  nextRunAt: string | null;
  /** The last run this server made, ISO 8601 (null: none since it started). */
  lastRunAt: string | null;
}

/**
 * Rebalancing (`engine.rebalance`): plans in the manner of Ganeti's hbal, their application in one
 * claim, and the imbalance score.
 */
export class Rebalancing {
  private readonly rebalancer: Rebalancer;
  private readonly schedule: RebalanceSchedule;
  private lastRunMs: number | null = null;

  constructor(
    private readonly runtime: EngineRuntime,
    private readonly events: EngineEvents,
  ) {
    this.rebalancer = new Rebalancer(runtime);
    this.schedule = new RebalanceSchedule(runtime.nowMs());
  }

  /** How unevenly the members are loaded now (what a plan would lower). */
  score(): number {
    return this.rebalancer.score();
  }
  /** The moves an hbal-style rebalance would make now, and the score before and after; moves nothing. */
  async plan(options: RebalanceOptions = {}): Promise<RebalancePlan> {
    return (await this.rebalancer.plan(options)).plan;
  }
  /** Plans as `plan` does and claims the moves in one claim: every move lands or none (each with a decision record). */
  async apply(options: RebalanceOptions = {}): Promise<RebalancePlan> {
    const plan = await tracked(
      this.runtime.metrics,
      "rebalance",
      () => this.rebalancer.apply(options),
      (plan) => plan.moves.length,
    );
    if (plan.applied) emitMoves(this.events, plan.moves, "rebalance");
    return plan;
  }

  /** What the next automatic run would do now (nothing moves), whether or not runs are enabled. */
  async automaticDryRun(): Promise<AutomaticRebalancePreview> {
    const run = await AutomaticRebalance.run(this.runtime, false);
    const next = this.runtime.effective.rebalance.intervalMinutes > 0 ? this.schedule.nextRun() : null;
    return {
      ...run,
      nextRunAt: next === null ? null : new Date(next).toISOString(),
      lastRunAt: this.lastRunMs === null ? null : new Date(this.lastRunMs).toISOString(),
    };
  }

  /**
   * Called by the engine's tick while it holds the healer lease: runs
   * automatic rebalancing when due (one engine at a time); undefined when
   * no run was due.
   */
  async runIfDue(): Promise<AutomaticRebalanceRun | undefined> {
    const nowMs = this.runtime.nowMs();
    if (!this.schedule.due(nowMs, this.runtime.effective.rebalance.intervalMinutes)) return undefined;
    this.lastRunMs = nowMs;
    const run = await tracked(
      this.runtime.metrics,
      "automatic_rebalance",
      () => AutomaticRebalance.run(this.runtime, true),
      (run) => run.moves.length,
    );
    this.announce(run);
    return run;
  }

  private announce(run: AutomaticRebalanceRun): void {
    emitMoves(this.events, run.moves, "rebalance");
    for (const group of run.groups) {
      if (!group.triggered) continue;
      const member = group.members[0]!;
      const moved = run.moves.filter((move) => move.from === member.name).length;
      const stayed = run.stayed.filter((instance) => instance.member === member.name).length;
      this.events.lifecycle(() => ({
        action: "cluster-rebalanced",
        member: member.name,
        context: {
          moved,
          stayed,
          score: member.score,
          difference_percent: group.differencePercent,
          threshold: run.settings.thresholdPercent,
        },
      }));
      if (moved > 0 || stayed > 0)
        this.runtime.logger.log("info", "automatic rebalancing relieved a member", {
          member: member.name,
          moved,
          stayed,
        });
    }
  }
}
