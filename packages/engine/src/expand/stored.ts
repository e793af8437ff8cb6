/**
 * Step 2 for a stored instance placed again (evacuation, healing, moves,
 * rebalancing, restore): its resources are what it holds (its
 * allocations), its architecture its own, traits from its flavor when the
 * flavor still exists.
 */
import type { InstancesPost } from "@berth/api-types";
import { EngineError } from "../base/errors.js";
import type { PlacementReason } from "../scriptlet/port.js";
import { cloneDevices } from "../store/clone.js";
import type { InstanceRecord } from "../store/records.js";
import type { CatalogCache } from "./catalog-cache.js";
import type { ExpandContext } from "./context.js";
import { type ExpandedRequest, expandRequest } from "./expand.js";
import { allowedGroupsOf, projectLimitsOf } from "./project-limits.js";
import { NO_MEMBERS, type PlacementRequest, placementRequest } from "./request.js";
import { projectOf, resolveTarget } from "./target.js";

/** Resources an instance holds, from its allocation rows. */
export function resourcesOf(record: InstanceRecord): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of record.allocations) out[row.resourceClass] = (out[row.resourceClass] ?? 0) + row.amount;
  return out;
}

/**
 * What a stored instance asks of the member it goes to: what it holds,
 * except that a memory share (`limits.memory: 50%`, read from its current
 * expansion) is left out, to be sized against the new member's memory
 * (expand/member-demand.ts), as LXD applies the share on the member the
 * instance runs on.
 */
function heldResources(record: InstanceRecord, expanded: ExpandedRequest): Record<string, number> {
  const held = resourcesOf(record);
  if (expanded.memoryShare?.requested === true) delete held.MEMORY_MB;
  return held;
}

export function bodyOf(record: InstanceRecord): InstancesPost {
  const body: InstancesPost = {
    name: record.name === "" ? undefined : record.name,
    type: record.type,
    config: { ...record.config },
    devices: cloneDevices(record.devices),
    profiles: [...record.profiles],
    description: record.description,
    ephemeral: record.ephemeral,
  };
  // Stored architectures came from a validated body or a member, so they are wire values.
  if (record.architecture !== "") body.architecture = record.architecture as InstancesPost["architecture"];
  if (record.flavor !== null) body.flavor = record.flavor;
  if (record.instanceType !== null) body.instance_type = record.instanceType;
  return body;
}

export interface StoredPlacement {
  reason: PlacementReason;
  /** `member` or `@group` (moves). */
  target?: string;
  /** Members never to choose (a move's current member). */
  excluded?: ReadonlySet<string>;
}

export async function expandStored(
  context: ExpandContext,
  catalog: CatalogCache,
  record: InstanceRecord,
  placement: StoredPlacement,
): Promise<PlacementRequest> {
  const project = projectOf(context, record.project);
  const body = bodyOf(record);
  let expanded: ExpandedRequest;
  try {
    expanded = expandRequest(
      body,
      record.name,
      await catalog.expansionCatalog(project, body),
      "trust-stored",
    );
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    // A profile or flavor it was created with may be gone; it still holds its resources.
    expanded = expandRequest(
      { ...body, profiles: [], flavor: undefined },
      record.name,
      {
        profile: () => undefined,
        flavor: () => undefined,
        imageByAlias: () => undefined,
        imageByFingerprint: () => undefined,
        defaultArchitecture: "",
      },
      "trust-stored",
    );
  }
  const held: ExpandedRequest = {
    ...expanded,
    resources: heldResources(record, expanded),
    limitsUsage: record.limitsUsage,
    architectures: record.architecture === "" ? null : [record.architecture],
    placementGroup: record.placementGroup,
  };
  return placementRequest(held, record.name, {
    id: record.id,
    reason: placement.reason,
    project,
    projectName: project.name,
    limits: projectLimitsOf(project),
    allowedGroups: allowedGroupsOf(project),
    target: resolveTarget(context, project, placement.target),
    excluded: placement.excluded ?? NO_MEMBERS,
    groupPolicy:
      record.placementGroup === null
        ? null
        : (context.model.placementGroup(record.project, record.placementGroup) ?? null),
    movingFrom: record.location,
    forthcoming: record.forthcoming,
    architecture: record.architecture,
    description: record.description,
    ephemeral: record.ephemeral,
    source: record.source,
  });
}
