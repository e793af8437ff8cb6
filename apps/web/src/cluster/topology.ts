/**
 * Member topology keys (`topology.rack=C1`, `topology.room=3`: where a
 * member sits; placement groups with `topology=rack` spread per rack) as
 * the cluster view shows them. Pure, tested without a browser.
 */
import { type ClusterMemberFull, TOPOLOGY_PREFIX } from "@berth/api-types";

/** The member's topology keys as `rack=C1 room=3`, names sorted ("" without any). */
export function topologyLabel(member: Pick<ClusterMemberFull, "config">): string {
  return Object.entries(member.config)
    .filter(([key, value]) => key.startsWith(TOPOLOGY_PREFIX) && value !== "")
    .map(([key, value]) => `${key.slice(TOPOLOGY_PREFIX.length)}=${value}`)
    .sort()
    .join(" ");
}

/** Every topology name any member has, sorted: what the view can group by. */
export function topologyNamesOf(members: readonly Pick<ClusterMemberFull, "config">[]): string[] {
  const names = new Set<string>();
  for (const member of members)
    for (const key of Object.keys(member.config))
      if (key.startsWith(TOPOLOGY_PREFIX)) names.add(key.slice(TOPOLOGY_PREFIX.length));
  return [...names].sort();
}
