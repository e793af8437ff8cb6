/** The project and `?target=` of a placement, checked as LXD does. */

import { forbidden, invalid, notFound } from "../base/errors.js";
import type { ProjectRecord } from "../store/records.js";
import type { ExpandContext } from "./context.js";
import { allowedGroupsOf } from "./project-limits.js";
import type { Target } from "./request.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

export function projectOf(context: ExpandContext, name: string): ProjectRecord {
  const project = context.model.projects.get(name);
  if (project === undefined) throw notFound(`Project "${name}" not found`);
  return project;
}

/** LXD `CheckTarget`: `@group` or a member, with the project's restrictions. */
export function resolveTarget(
  context: ExpandContext,
  project: ProjectRecord,
  target: string | undefined,
): Target {
  if (target === undefined || target === "") return null;
  const restricted = project.config.restricted === "true";
  // LXD: a restricted project blocks targeting unless `restricted.cluster.target=allow` (the default is block).
  if (restricted && (project.config["restricted.cluster.target"] ?? "block") !== "allow") {
    throw forbidden("This project doesn't allow cluster member targeting");
  }
  const allowed = allowedGroupsOf(project);
  if (target.startsWith("@")) {
    const group = target.slice(1);
    if (restricted && allowed.length > 0 && !allowed.includes(group)) {
      throw forbidden(`Project isn't allowed to use this cluster group: "${group}"`);
    }
    if (!context.model.groups.has(group)) throw invalid(`Cluster group "${group}" doesn't exist`);
    return { kind: "group", name: group };
  }
  const member = context.model.member(target);
  if (member === undefined) throw notFound(`Cluster member "${target}" not found`);
  if (restricted && allowed.length > 0 && !allowed.some((group) => member.record.groups.includes(group))) {
    throw forbidden(`Project isn't allowed to use this cluster member: "${target}"`);
  }
  return { kind: "member", name: target };
}
