import { pgTables, sharedTables } from "@berth/sql-core";

/** The tables both SQL stores share, built for PostgreSQL from @berth/sql-core's one description. */
export const {
  members,
  groups,
  memberGroups,
  memberTraits,
  resourceClasses,
  inventories,
  projects,
  profiles,
  placementGroups,
  flavors,
  images,
  serverConfig,
  instances,
  instanceProfiles,
  allocations,
  usage,
  providers,
  traits,
  consumers,
  consumerAllocations,
  apiTokens,
  trustedCertificates,
  trustTokens,
} = pgTables(sharedTables);
