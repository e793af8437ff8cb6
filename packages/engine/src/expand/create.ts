/**
 * Step 2 for a create body: project, UUID, name, expansion (shared by every
 * body of the same shape, see batch-memo.ts), project limits and groups,
 * target and placement group, gathered into the PlacementRequest the
 * later steps carry. Every store read of a placement happens here, before
 * the synchronous candidates and decide steps, so deciding and holding
 * capacity in the model never interleave with other placements.
 */
import type { InstancesPost } from "@berth/api-types";
import { invalid, notFound } from "../base/errors.js";
import { cloneJson } from "../store/clone.js";
import { BatchMemo } from "./batch-memo.js";
import type { CatalogCache } from "./catalog-cache.js";
import type { ExpandContext } from "./context.js";
import { withCopySource } from "./copy-source.js";
import { defaultInstanceName, newInstanceId } from "./instance-id.js";
import { NO_MEMBERS, type PlacementRequest, placementRequest } from "./request.js";
import { isUuid, projectOf } from "./target.js";

export async function expandCreate(
  context: ExpandContext,
  catalog: CatalogCache,
  requested: InstancesPost,
  projectName: string,
  target: string | undefined,
  memo: BatchMemo = new BatchMemo(),
): Promise<PlacementRequest> {
  const project = projectOf(context, projectName);
  const copied = withCopySource(context, requested, project.name);
  const body = copied instanceof Promise ? await copied : copied;
  const forthcoming = body.forthcoming === true;
  const id = body.uuid ?? newInstanceId();
  if (body.uuid !== undefined && !isUuid(id)) throw invalid(`Invalid uuid "${id}"`);
  // Reservations may stay unnamed (Ganeti: only the UUID is mandatory); LXD
  // names unnamed instances itself, Berth derives the name from the UUID.
  const name = body.name ?? (forthcoming ? "" : defaultInstanceName(id));
  const expansion = memo.expand(catalog, project, body, name);
  const expanded = expansion instanceof Promise ? await expansion : expansion;
  const { limits, allowedGroups } = memo.projectFacts(project);
  const resolvedTarget = memo.target(context, project, target);
  let groupPolicy = null;
  if (expanded.placementGroup !== null) {
    groupPolicy = context.model.placementGroup(project.name, expanded.placementGroup) ?? null;
    if (groupPolicy === null) {
      throw notFound(`Placement group "${expanded.placementGroup}" not found in project "${project.name}"`);
    }
  }
  return placementRequest(expanded, name, {
    id,
    reason: "new",
    project,
    projectName: project.name,
    limits,
    allowedGroups,
    target: resolvedTarget,
    excluded: NO_MEMBERS,
    groupPolicy,
    movingFrom: null,
    forthcoming,
    // What the scriptlet sees as request.architecture: the body's, else the image's (else the default one).
    architecture: body.architecture ?? expanded.architectures?.[0] ?? "",
    description: body.description ?? "",
    ephemeral: body.ephemeral ?? false,
    source: body.source === undefined ? null : (cloneJson(body.source) as Record<string, unknown>),
  });
}
