import type { RebalancePlan as WirePlan } from "@berth/api-types";
import type { RebalancePlan } from "@berth/engine";
import { defineRoute, type RouteSpec } from "./route-spec.js";

function planToWire(plan: RebalancePlan): WirePlan {
  return {
    moves: plan.moves.map((m) => ({
      instance: m.name === "" ? m.id : m.name,
      project: m.project,
      from: m.from,
      to: m.to,
      gain: m.gain,
    })),
    score_before: plan.scoreBefore,
    score_after: plan.scoreAfter,
    applied: plan.applied,
  };
}

/** Rebalancing: GET computes a move plan without touching anything; POST applies it. */
export const rebalanceRoutes: RouteSpec[] = [
  defineRoute({
    method: "GET",
    path: "/1.0/cluster/rebalance",
    operationId: "planRebalance",
    summary: "A move plan that lowers the cluster's imbalance (dry: nothing moves)",
    tag: "cluster",
    access: "admin",
    response: "RebalancePlan",
    handle: async ({ services }) => ({ metadata: planToWire(await services.engine.rebalance.plan()) }),
  }),
  defineRoute({
    method: "POST",
    path: "/1.0/cluster/rebalance",
    operationId: "applyRebalance",
    summary: 'Compute and apply a move plan (moves re-placed with reason "rebalance")',
    tag: "cluster",
    access: "admin",
    response: "RebalancePlan",
    errors: [409],
    handle: async ({ services }) => ({ metadata: planToWire(await services.engine.rebalance.apply()) }),
  }),
];
