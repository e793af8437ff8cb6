import type { ExpandedRequest } from "../expand/expand.js";
import type { PlacementReason } from "../scriptlet/port.js";
import type { PlacementGroupRecord, ProjectRecord } from "../store/records.js";

/** Everything the feasibility filters and policies read for one placement. */
export interface PlacementContext {
  reason: PlacementReason;
  project: ProjectRecord;
  request: ExpandedRequest;
  /** `@group` target, if any. */
  targetGroup: string | null;
  /** Project `restricted.cluster.groups` (empty: unrestricted). */
  allowedGroups: string[];
  /** Members never to choose (e.g. the instance's current member when relocating). */
  excluded: ReadonlySet<string>;
  placementGroup: PlacementGroupRecord | null;
  nowMs: number;
  offlineThresholdMs: number;
}
