/**
 * A ScriptletClusterView over plain data: lets a scriptlet be exercised
 * against a described cluster without a store (tests, `berth` tooling that
 * replays a scriptlet against a captured snapshot).
 */
import { EngineError } from "../base/errors.js";
import type {
  ClusterMemberStateView,
  ClusterMemberView,
  InstanceView,
  ProjectView,
  ResourcesView,
  ScriptletClusterView,
} from "./port.js";

export interface PlainClusterData {
  /** Schedulable members, in candidate order. */
  members: ClusterMemberView[];
  /** State by member name; a member without an entry reports an empty state. */
  states?: Record<string, ClusterMemberStateView>;
  /** Resources by member name; a member without an entry reports empty resources. */
  resources?: Record<string, ResourcesView>;
  instances?: InstanceView[];
  /** In-flight creates (counted by get_instances_count(pending=True)). */
  pending?: { project: string; location: string }[];
  /** Known projects; `default` is assumed when none are listed. */
  projects?: ProjectView[];
  /** Known cluster groups; by default the groups the members belong to. */
  groups?: string[];
}

export function createPlainClusterView(data: PlainClusterData): ScriptletClusterView {
  const members = new Map(data.members.map((m) => [m.server_name, m]));
  // Maps, not the records themselves: a scriptlet may look up every one of 10,000 members.
  const states = new Map(Object.entries(data.states ?? {}));
  const resources = new Map(Object.entries(data.resources ?? {}));
  const projects = new Map((data.projects ?? [{ name: "default" }]).map((p) => [p.name, p]));
  const instances = data.instances ?? [];
  const pending = data.pending ?? [];
  const groups = new Set(data.groups ?? data.members.flatMap((m) => m.groups ?? []));

  const checkFilter = (filter: { project?: string; location?: string }): void => {
    if (filter.project !== undefined && !projects.has(filter.project)) {
      throw new EngineError("not_found", "Project not found");
    }
    if (filter.location !== undefined && !members.has(filter.location)) {
      throw new EngineError("not_found", "Cluster member not found");
    }
  };
  const matches = (
    filter: { project?: string; location?: string },
    i: { project?: string; location?: string },
  ) =>
    (filter.project === undefined || (i.project ?? "default") === filter.project) &&
    (filter.location === undefined || i.location === filter.location);

  return {
    memberState: (name) => (members.has(name) ? (states.get(name) ?? {}) : undefined),
    memberResources: (name) => (members.has(name) ? (resources.get(name) ?? {}) : undefined),
    instances: (filter) => instances.filter((i) => matches(filter, i)),
    instancesCount: (filter) => {
      checkFilter(filter);
      const stored = instances.filter((i) => matches(filter, i)).length;
      return filter.pending ? stored + pending.filter((p) => matches(filter, p)).length : stored;
    },
    clusterMembers: (group) => {
      if (group === undefined) return data.members;
      if (!groups.has(group)) return undefined;
      return data.members.filter((m) => m.groups?.includes(group));
    },
    project: (name) => projects.get(name),
  };
}
