/**
 * The lifecycle events of instances moved off or back onto members:
 * evacuation and healing (cluster members, the engine's tick), restore
 * and rebalancing all announce their moves the same way.
 */

import type { EngineEvents } from "../runtime/events.js";
import type { EvacuationOutcome, MovedInstance } from "./relocation.js";

/** One `instance-moved` event per instance an evacuation, healing, restore or rebalance moved. */
export function emitMoves(events: EngineEvents, moved: readonly MovedInstance[], reason: string): void {
  if (!events.active) return;
  for (const move of moved)
    events.lifecycle(() => ({
      action: "instance-moved",
      project: move.project,
      instance: move.name,
      context: { from: move.from, to: move.to, reason },
    }));
}

export function emitEvacuation(
  events: EngineEvents,
  outcome: EvacuationOutcome,
  reason: "evacuation" | "relocation",
): void {
  emitMoves(events, outcome.moved, reason);
  events.lifecycle(() => ({
    action: "cluster-member-evacuated",
    member: outcome.member,
    context: { reason, moved: outcome.moved.length, stayed: outcome.stayed.length },
  }));
}
