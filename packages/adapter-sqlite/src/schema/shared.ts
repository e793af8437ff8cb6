import { sharedTableSpecs, sqliteTables } from "@berth/sql-core";

/** The tables both SQL stores share, built for SQLite from @berth/sql-core's one description. */
const tables = sqliteTables(sharedTableSpecs);

export const { members, groups, memberGroups, memberTraits, resourceClasses, inventories } = tables;
export const { projects, profiles, placementGroups, flavors, images, serverConfig } = tables;
export const { instances, instanceProfiles, allocations, usage } = tables;
export const { providers, traits, consumers, consumerAllocations } = tables;
export const { apiTokens, trustedCertificates, trustTokens } = tables;
