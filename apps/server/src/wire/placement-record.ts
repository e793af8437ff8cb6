import type { InstancePlacementRecord, RejectionGroup } from "@berth/api-types";
import type {
  RejectionGroup as EngineRejectionGroup,
  InstanceRecord,
  PlacementDecisionRecord,
} from "@berth/engine";

/** Engine rejection groups as the wire has them (same fields, already snake-free). */
export function rejectionsToWire(groups: readonly EngineRejectionGroup[]): RejectionGroup[] {
  return groups.map(({ code, count, text, members, capacity }) => ({
    code,
    count,
    text,
    members: [...members],
    capacity,
  }));
}

/** An instance's decision record -> `GET /1.0/instances/NAME/placement`. */
export function placementRecordToWire(
  record: InstanceRecord,
  decision: PlacementDecisionRecord,
): InstancePlacementRecord {
  return {
    instance: record.name,
    project: record.project,
    member: decision.member,
    decided_at: decision.at,
    reason: decision.reason,
    decided_by: decision.decidedBy,
    target: decision.target,
    placement_group: decision.placementGroup === null ? null : { ...decision.placementGroup },
    members: decision.members,
    candidates:
      decision.candidates === null
        ? null
        : { count: decision.candidates.count, leading: [...decision.candidates.leading] },
    rejections: rejectionsToWire(decision.rejections),
    log: decision.log.map(({ level, message }) => ({ level, message })),
    log_dropped: decision.logDropped,
    scriptlet:
      decision.scriptlet === null
        ? null
        : { steps: decision.scriptlet.steps, time_ms: decision.scriptlet.ms },
  };
}
