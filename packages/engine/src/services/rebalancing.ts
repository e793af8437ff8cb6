/**
 * `engine.rebalance`: LXD's `/1.0/cluster/rebalance`. Plans and applies
 * with the Rebalancer (rebalance.ts); an applied plan is counted and its
 * moves announced.
 */

import type { EngineEvents } from "../runtime/events.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import { emitMoves } from "./move-events.js";
import { type RebalanceOptions, type RebalancePlan, Rebalancer } from "./rebalance.js";
import { tracked } from "./tracked.js";

/**
 * Rebalancing (`engine.rebalance`): plans in the manner of Ganeti's hbal, their application in one
 * claim, and the imbalance score.
 */
export class Rebalancing {
  private readonly rebalancer: Rebalancer;

  constructor(
    private readonly runtime: EngineRuntime,
    private readonly events: EngineEvents,
  ) {
    this.rebalancer = new Rebalancer(runtime);
  }

  /** How unevenly the members are loaded now (what a plan would lower). */
  score(): number {
    return this.rebalancer.score();
  }
  async plan(options: RebalanceOptions = {}): Promise<RebalancePlan> {
    return (await this.rebalancer.plan(options)).plan;
  }
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
}
