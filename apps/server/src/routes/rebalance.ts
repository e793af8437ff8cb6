import type { RebalancePlan as WirePlan, AutomaticRebalancePreview as WirePreview } from "@berth/api-types";
import type { AutomaticRebalancePreview, RebalancePlan } from "@berth/engine";
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

function previewToWire(preview: AutomaticRebalancePreview): WirePreview {
  const label = (instance: { name: string; id: string }) =>
    instance.name === "" ? instance.id : instance.name;
  return {
    enabled: preview.settings.intervalMinutes > 0,
    interval: preview.settings.intervalMinutes,
    threshold: preview.settings.thresholdPercent,
    batch: preview.settings.batch,
    cooldown: preview.settings.cooldown,
    next_run_at: preview.nextRunAt,
    last_run_at: preview.lastRunAt,
    groups: preview.groups.map((group) => ({
      architecture: group.architecture,
      members: group.members,
      difference_percent: group.differencePercent,
      triggered: group.triggered,
    })),
    moves: preview.moves.map((move) => ({
      instance: label(move),
      project: move.project,
      from: move.from,
      to: move.to,
      from_score: move.fromScore,
      to_score_before: move.toScoreBefore,
      to_score_after: move.toScoreAfter,
    })),
    stayed: preview.stayed.map((stayed) => ({
      instance: label(stayed),
      project: stayed.project,
      member: stayed.member,
      reason: stayed.reason,
      message: stayed.message,
    })),
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
  defineRoute({
    method: "GET",
    path: "/1.0/cluster/rebalance/automatic",
    operationId: "previewAutomaticRebalance",
    summary:
      "What the next run of automatic rebalancing (cluster.rebalance.*, Incus's rules) would move now, and why the other instances of a relieved member stay (dry: nothing moves)",
    tag: "cluster",
    access: "admin",
    response: "AutomaticRebalancePreview",
    handle: async ({ services }) => ({
      metadata: previewToWire(await services.engine.rebalance.automaticDryRun()),
    }),
  }),
];
