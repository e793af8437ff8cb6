/**
 * What the views read from berthd, one hook per answer. Query keys start
 * with their live topic (live/topics.ts), so a change refetches exactly
 * the views that show it.
 */
import type {
  ClusterGroup,
  ClusterMemberFull,
  Flavor,
  Instance,
  InstancePlacementRecord,
  Project,
  ResourceClass,
  Server,
} from "@berth/api-types";
import { useQuery } from "@tanstack/react-query";
import { useSession } from "../session/session-context.js";

export const keys = {
  server: ["config", "server"] as const,
  members: ["members", "full"] as const,
  groups: ["members", "groups"] as const,
  projects: ["config", "projects"] as const,
  flavors: ["config", "flavors"] as const,
  classes: ["config", "resource-classes"] as const,
  instances: (project: string) => ["instances", "list", project] as const,
  placement: (project: string, name: string) => ["instances", "placement", project, name] as const,
};

export function useServer() {
  const { session } = useSession();
  return useQuery<Server>({ queryKey: keys.server, queryFn: () => session.api.getServer() });
}

export function useMembers() {
  const { session } = useSession();
  return useQuery<ClusterMemberFull[]>({ queryKey: keys.members, queryFn: () => session.api.membersFull() });
}

export function useGroups() {
  const { session } = useSession();
  return useQuery<ClusterGroup[]>({ queryKey: keys.groups, queryFn: () => session.api.groups.list() });
}

export function useProjects() {
  const { session } = useSession();
  return useQuery<Project[]>({ queryKey: keys.projects, queryFn: () => session.api.projects.list() });
}

export function useFlavors() {
  const { session } = useSession();
  return useQuery<Flavor[]>({ queryKey: keys.flavors, queryFn: () => session.api.flavors.list() });
}

/** The server's resource classes, standard ones first in Placement's order (the order the server lists). */
export function useResourceClasses() {
  const { session } = useSession();
  return useQuery<ResourceClass[]>({
    queryKey: keys.classes,
    queryFn: () => session.api.resourceClasses.list(),
    staleTime: 60_000,
  });
}

export function useInstances(project: string) {
  const { session } = useSession();
  return useQuery<Instance[]>({
    queryKey: keys.instances(project),
    queryFn: () => session.api.instances.list({ project }),
  });
}

export function usePlacementRecord(project: string, name: string) {
  const { session } = useSession();
  return useQuery<InstancePlacementRecord>({
    queryKey: keys.placement(project, name),
    queryFn: () => session.api.instancePlacement(name, { project }),
    retry: false,
  });
}
