/**
 * Why a catalog record cannot be deleted yet, per table, from what the
 * Store counted or found in its transaction (undefined: it may go). The
 * reasons end the conflict `checkCatalogDelete` raises.
 */

/** A cluster group, while members belong to it. */
export function groupInUse(members: number): string | undefined {
  return members > 0 ? `${members} member(s) belong to it` : undefined;
}

/** What uses a project. */
export interface ProjectUsers {
  /** Instances and reservations in the project. */
  instances: number;
  /** The project has profiles of its own. */
  hasProfiles: boolean;
  /** The project has placement groups. */
  hasPlacementGroups: boolean;
}

/** A project, while it holds instances (reservations too), profiles or placement groups. */
export function projectInUse(users: ProjectUsers): string | undefined {
  if (users.instances > 0) return `${users.instances} instance(s)`;
  if (users.hasProfiles) return "it has profiles";
  if (users.hasPlacementGroups) return "it has placement groups";
  return undefined;
}

/** A profile, while instances of its project use it. */
export function profileInUse(instances: number): string | undefined {
  return instances > 0 ? `used by ${instances} instance(s)` : undefined;
}

/** A placement group, while instances belong to it. */
export function placementGroupInUse(instances: number): string | undefined {
  return instances > 0 ? `${instances} instance(s) belong to it` : undefined;
}

/** What uses a custom resource class. */
export interface ResourceClassUsers {
  /** A member has an inventory of it. */
  memberInventory: boolean;
  /** The uuid of a Placement provider with an inventory of it, if any. */
  providerInventory: string | undefined;
  /** Instances have allocations of it. */
  allocated: boolean;
}

/** A custom resource class, while an inventory or allocation has it. */
export function resourceClassInUse(users: ResourceClassUsers): string | undefined {
  if (users.memberInventory) return "a member has an inventory of it";
  if (users.providerInventory !== undefined)
    return `provider "${users.providerInventory}" has an inventory of it`;
  if (users.allocated) return "instances have allocations of it";
  return undefined;
}

/** What uses a Placement provider. */
export interface ProviderUsers {
  /** How many providers name it as their parent. */
  children: number;
  /** Consumers hold allocations on it. */
  allocated: boolean;
}

/** A Placement provider, while it has child providers or allocations. */
export function providerInUse(users: ProviderUsers): string | undefined {
  if (users.children > 0) return `${users.children} child provider(s)`;
  return users.allocated ? "it has allocations" : undefined;
}

/** Who holds a custom trait, as the Store found it in its delete transaction. */
export interface TraitHolders {
  /** The uuid of a Placement provider that has it, if any. */
  provider: string | undefined;
  /** The name of a cluster member that has it (its root provider shows it), if any. */
  member: string | undefined;
}

/** A custom trait, while a provider or a member has it. */
export function traitInUse(holders: TraitHolders): string | undefined {
  if (holders.provider !== undefined) return `provider "${holders.provider}" has it`;
  if (holders.member !== undefined) return `member "${holders.member}" has it`;
  return undefined;
}
