/**
 * ScriptletClusterView over the engine's model: what the scriptlet builtins
 * read. Everything is O(1) or O(members) except `get_instances`, which by
 * nature lists instances; the engine prefetches that list only for
 * scriptlets that can call `get_instances` or `get_project` (whose `used_by`
 * names instances), so other scriptlets never pay per instance.
 *
 * Why a prefetch decided from the source, not a lazy read: a scriptlet run
 * is synchronous (the Starlark interpreter cannot await), and the Store port
 * has only asynchronous reads (a SQLite or remote store cannot answer
 * synchronously), so whatever a builtin may read must be loaded before the
 * run. Loading every instance for every placement would make each
 * placement O(instances); loading it only for scriptlets that can reach
 * those builtins keeps all others flat.
 *
 * Why the source test is sound: Starlark has no `getattr` on modules, no
 * `globals()` and no `eval`, so the only way a program can reach a
 * predeclared builtin is by writing its name as an identifier token. The
 * test therefore looks for the identifier anywhere (a call, an alias
 * `f = get_instances`, an argument), never for a call pattern; a name that
 * only appears in a comment or a string costs one needless prefetch, never
 * a wrong answer. A resolver-based list of referenced predeclared names
 * from the compiled program would drop even those false positives
 * (requested from the scriptlet host).
 */
import { EngineError } from "../base/errors.js";
import { orderByLoad } from "../candidates/rankers/fewest-instances.js";
import type { ClusterModel } from "../model/cluster-model.js";
import type {
  ClusterMemberStateView,
  ClusterMemberView,
  InstanceView,
  ProjectView,
  ResourcesView,
  ScriptletClusterView,
} from "../scriptlet/port.js";
import type { InstanceRecord } from "../store/records.js";
import { instanceView, memberView } from "../views/views.js";

export { needsInstanceList } from "../scriptlet/needs.js";

import type { InstanceExpansion } from "../expand/instance-expansion.js";

/** A stored instance and its expansion, as prefetched for `get_instances()`. */
export interface ListedInstance {
  record: InstanceRecord;
  expansion: InstanceExpansion;
}

export function instanceUrl(record: Pick<InstanceRecord, "name" | "project">): string {
  const base = `/1.0/instances/${encodeURIComponent(record.name)}`;
  return record.project === "default" ? base : `${base}?project=${encodeURIComponent(record.project)}`;
}

export class ModelClusterView implements ScriptletClusterView {
  constructor(
    private readonly model: ClusterModel,
    private readonly clock: { nowMs: number; offlineThresholdMs: number },
    /** Every stored instance with its expansion, when prefetched; null when the scriptlet does not need it. */
    private readonly allInstances: ListedInstance[] | null,
  ) {}

  memberState(name: string): ClusterMemberStateView | undefined {
    const member = this.model.member(name);
    if (member === undefined) return undefined;
    return (member.record.state ?? {}) as ClusterMemberStateView;
  }

  memberResources(name: string): ResourcesView | undefined {
    const member = this.model.member(name);
    if (member === undefined) return undefined;
    return (member.record.resources ?? {}) as ResourcesView;
  }

  private instanceList(): ListedInstance[] {
    // needsInstanceList() said the scriptlet could not reach this builtin; reaching it anyway is an engine bug.
    if (this.allInstances === null) {
      throw new EngineError("internal", "Instance list was not preloaded for this scriptlet");
    }
    return this.allInstances;
  }

  instances(filter: { project?: string; location?: string }): InstanceView[] {
    return this.instanceList()
      .filter(
        ({ record }) =>
          (filter.project === undefined || record.project === filter.project) &&
          (filter.location === undefined || record.location === filter.location),
      )
      .map(({ record, expansion }) => instanceView(record, expansion));
  }

  instancesCount(filter: { project?: string; location?: string; pending: boolean }): number {
    return this.model.instancesCount(filter);
  }

  clusterMembers(group?: string): ClusterMemberView[] | undefined {
    if (group !== undefined && !this.model.groups.has(group)) return undefined;
    const schedulable = this.model
      .allMembers()
      .filter(
        (member) =>
          !member.record.evacuated &&
          member.isOnline(this.clock.nowMs, this.clock.offlineThresholdMs) &&
          (group === undefined || member.record.groups.includes(group)),
      );
    return orderByLoad(schedulable).map((member) =>
      memberView(member, this.clock.nowMs, this.clock.offlineThresholdMs),
    );
  }

  project(name: string): ProjectView | undefined {
    const project = this.model.projects.get(name);
    if (project === undefined) return undefined;
    const usedBy = this.instanceList()
      .filter(({ record }) => record.project === name)
      .map(({ record }) => instanceUrl(record));
    return {
      name: project.name,
      description: project.description,
      config: { ...project.config },
      used_by: usedBy,
    };
  }
}
