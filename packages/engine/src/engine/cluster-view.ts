/**
 * ScriptletClusterView over the engine's model: what the scriptlet builtins
 * read. Everything is O(1) or O(members) except `get_instances`, which by
 * nature lists instances; the engine prefetches that list only for
 * scriptlets that call `get_instances` or `get_project` (whose `used_by`
 * names instances), so other scriptlets never pay per instance.
 */
import type { ClusterModel } from "../model/cluster-model.js";
import { byLoad } from "../pipeline/candidates.js";
import { instanceView, memberView } from "../pipeline/views.js";
import type {
  ClusterMemberStateView,
  ClusterMemberView,
  InstanceView,
  ProjectView,
  ResourcesView,
  ScriptletClusterView,
} from "../scriptlet/port.js";
import type { InstanceRecord } from "../store/records.js";

/** Does the scriptlet read instance lists (so the engine must prefetch them)? */
export function needsInstanceList(source: string): boolean {
  return /\bget_instances\s*\(/.test(source) || /\bget_project\s*\(/.test(source);
}

export function instanceUrl(record: Pick<InstanceRecord, "name" | "project">): string {
  const base = `/1.0/instances/${encodeURIComponent(record.name)}`;
  return record.project === "default" ? base : `${base}?project=${encodeURIComponent(record.project)}`;
}

export class ModelClusterView implements ScriptletClusterView {
  constructor(
    private readonly model: ClusterModel,
    private readonly clock: { nowMs: number; offlineThresholdMs: number },
    /** Every stored instance, when prefetched; null when the scriptlet does not need it. */
    private readonly allInstances: InstanceRecord[] | null,
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

  instances(filter: { project?: string; location?: string }): InstanceView[] {
    return (this.allInstances ?? [])
      .filter(
        (record) =>
          (filter.project === undefined || record.project === filter.project) &&
          (filter.location === undefined || record.location === filter.location),
      )
      .map(instanceView);
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
    return byLoad(schedulable).map((member) =>
      memberView(member, this.clock.nowMs, this.clock.offlineThresholdMs),
    );
  }

  project(name: string): ProjectView | undefined {
    const project = this.model.projects.get(name);
    if (project === undefined) return undefined;
    const usedBy = (this.allInstances ?? []).filter((record) => record.project === name).map(instanceUrl);
    return {
      name: project.name,
      description: project.description,
      config: { ...project.config },
      used_by: usedBy,
    };
  }
}
