import type { InstancesPost } from "@berth/api-types";
import type { ProjectRecord } from "../store/records.js";
import type { CatalogCache } from "./catalog-cache.js";
import type { ExpandContext } from "./context.js";
import { type ExpandedRequest, expandRequest } from "./expand.js";
import type { ProjectFacts, SharedDerivations } from "./expansion-cache.js";
import { allowedGroupsOf, projectLimitsOf } from "./project-limits.js";
import type { Target } from "./request.js";
import { resolveTarget } from "./target.js";

/**
 * What a batch of creates shares (one bulk request): the project's parsed
 * limits and groups, the resolved target, and the expansion of every
 * distinct body shape. A bulk of 10,000 copies of one body (names aside)
 * then parses sizes and merges profiles once, not 10,000 times. Expanded
 * requests are shared between the batch's placements, so nothing may
 * mutate them (nothing does: records are copied by the store).
 */
export class BatchMemo {
  // Made on first use: a lone create (most of them) uses neither, and the two maps were ~400 of
  // the ~24,000 bytes it allocated (heap sampling, 1k members, 2026-11-29).
  private expansions: Map<string, ExpandedRequest> | undefined;
  private readonly projects: WeakMap<ProjectRecord, ProjectFacts>;
  private targets: Map<string, Target> | undefined;

  /** `shared`: what placements keep across requests (see SharedDerivations). */
  constructor(private readonly shared?: SharedDerivations) {
    this.projects = shared?.projectFacts ?? new WeakMap();
  }

  projectFacts(project: ProjectRecord): ProjectFacts {
    let facts = this.projects.get(project);
    if (facts === undefined) {
      facts = { limits: projectLimitsOf(project), allowedGroups: allowedGroupsOf(project) };
      this.projects.set(project, facts);
    }
    return facts;
  }

  target(context: ExpandContext, project: ProjectRecord, target: string | undefined): Target {
    // No target resolves to none at once: nothing to keep.
    if (target === undefined || target === "") return resolveTarget(context, project, target);
    const key = `${project.name}\u0000${target}`;
    this.targets ??= new Map();
    let resolved = this.targets.get(key);
    if (resolved === undefined) {
      resolved = resolveTarget(context, project, target);
      this.targets.set(key, resolved);
    }
    return resolved;
  }

  /**
   * The body's expansion, shared by every body of the same shape (its `name`
   * is the first one's). Synchronous when the shape was expanded before (the
   * usual create): no promise hop.
   */
  expand(
    catalog: CatalogCache,
    project: ProjectRecord,
    body: InstancesPost,
    name: string,
  ): ExpandedRequest | Promise<ExpandedRequest> {
    const key = shapeKey(project, body);
    let expanded = this.expansions?.get(key);
    if (expanded !== undefined) return expanded;
    // Read before the catalog: a write landing meanwhile moves the epoch past this entry.
    const epoch = this.shared?.context.catalogEpoch();
    expanded = this.shared?.expansions.get(epoch, key);
    if (expanded !== undefined) {
      (this.expansions ??= new Map()).set(key, expanded);
      return expanded;
    }
    return catalog.expansionCatalog(project, body).then((read) => {
      const fresh = expandRequest(body, name, read);
      this.shared?.expansions.set(epoch, key, fresh);
      (this.expansions ??= new Map()).set(key, fresh);
      return fresh;
    });
  }
}

/**
 * Everything but the name and UUID decides the expansion: the project and
 * every other field of the body, each as JSON. Field by field rather than
 * one JSON of a copy without those two: the copy (a rest spread) cost as
 * much as the JSON itself on every create.
 */
function shapeKey(project: ProjectRecord, body: InstancesPost): string {
  let key = project.name;
  for (const field of Object.keys(body)) {
    if (field === "name" || field === "uuid") continue;
    const value = (body as Record<string, unknown>)[field];
    // As JSON.stringify of an object leaves out an undefined field; JSON has no raw NUL, so
    // "\u0000" cannot occur inside a part and the parts cannot run into each other.
    if (value !== undefined) key += `\u0000${JSON.stringify(field)}\u0000${JSON.stringify(value)}`;
  }
  return key;
}
