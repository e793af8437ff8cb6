/** How big a synthetic cluster is. */
export interface ClusterShape {
  members: number;
  instances: number;
}

/** Offline threshold set on generated clusters: runs outlast the 20 s default, heartbeats are not the subject. */
export const BENCH_OFFLINE_THRESHOLD_S = "86400";

export function describeShape(shape: ClusterShape): string {
  return `${shape.members.toLocaleString("en-US")} members / ${shape.instances.toLocaleString("en-US")} instances`;
}
