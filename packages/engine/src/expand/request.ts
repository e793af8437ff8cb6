/**
 * The one shape a placement carries from step 2 to step 5: what expansion
 * made of the create body (or of a stored instance being moved), who asks
 * and why, where it may go, and everything the claim writes. The stack's
 * filters read fields of it (each filter only those it declares), the
 * scriptlet sees a view of it, and the claim turns it into the stored
 * record: nothing is re-assembled on the way.
 */

import type { PlacementReason } from "../scriptlet/port.js";
import type { ProjectLimits } from "../store/port.js";
import type { PlacementGroupRecord, ProjectRecord } from "../store/records.js";
import type { ExpandedRequest } from "./expand.js";

/** `?target=`: a member, an `@group`, or none. */
export type Target = { kind: "member"; name: string } | { kind: "group"; name: string } | null;

export interface PlacementRequest extends ExpandedRequest {
  /** The instance's UUID (given, generated, or the stored instance's). */
  readonly id: string;
  readonly reason: PlacementReason;
  readonly project: ProjectRecord;
  /** `project.name`: what a filter reads (and the candidate cache keys on) when it names the project. */
  readonly projectName: string;
  /** The project's parsed limits (the store re-checks them with the claim). */
  readonly limits: ProjectLimits;
  /** Project `restricted.cluster.groups` (empty: unrestricted). */
  readonly allowedGroups: readonly string[];
  readonly target: Target;
  /** Members never to choose (a moved instance's current member). */
  readonly excluded: ReadonlySet<string>;
  /** The placement group's record when it exists (its policy ranks the candidates). */
  readonly groupPolicy: PlacementGroupRecord | null;
  /**
   * The member a stored instance is on (a move, evacuation, healing,
   * restore, rebalancing), null for a new one: its own placement-group
   * count there does not hold it back from its own member's topology domain.
   */
  readonly movingFrom: string | null;
  readonly forthcoming: boolean;
  /** The architecture to store ("" lets the claim take the image's or the member's). */
  readonly architecture: string;
  readonly description: string;
  readonly ephemeral: boolean;
  readonly source: Record<string, unknown> | null;
}

/** What a placement adds to the expansion. */
export type PlacementFields = Omit<PlacementRequest, keyof ExpandedRequest>;

/**
 * The request for `expanded` named `name`. Every field is listed, none
 * spread: a request is read field by field for every candidate of a
 * placement, and one literal of fixed shape keeps those reads fast (an
 * object grown by spreading two others of this size ends up in V8's slow
 * dictionary mode).
 */
export function placementRequest(
  expanded: ExpandedRequest,
  name: string,
  placement: PlacementFields,
): PlacementRequest {
  return {
    name,
    type: expanded.type,
    config: expanded.config,
    devices: expanded.devices,
    expandedConfig: expanded.expandedConfig,
    expandedDevices: expanded.expandedDevices,
    profiles: expanded.profiles,
    flavor: expanded.flavor,
    instanceType: expanded.instanceType,
    resources: expanded.resources,
    memoryShare: expanded.memoryShare,
    requiredTraits: expanded.requiredTraits,
    forbiddenTraits: expanded.forbiddenTraits,
    instanceResources: expanded.instanceResources,
    limitsUsage: expanded.limitsUsage,
    architectures: expanded.architectures,
    placementGroup: expanded.placementGroup,
    id: placement.id,
    reason: placement.reason,
    project: placement.project,
    projectName: placement.projectName,
    limits: placement.limits,
    allowedGroups: placement.allowedGroups,
    target: placement.target,
    excluded: placement.excluded,
    groupPolicy: placement.groupPolicy,
    movingFrom: placement.movingFrom,
    forthcoming: placement.forthcoming,
    architecture: placement.architecture,
    description: placement.description,
    ephemeral: placement.ephemeral,
    source: placement.source,
  };
}

/** No excluded members (shared: requests never mutate it). */
export const NO_MEMBERS: ReadonlySet<string> = new Set();

/** How errors name the request: `instance "web1" in project "default"` (a nameless reservation by UUID). */
export function subjectOf(request: PlacementRequest): string {
  const name = request.name === "" ? request.id : request.name;
  return `instance "${name}" in project "${request.projectName}"`;
}
