/**
 * Placement's texts for provider, inventory, trait and aggregate refusals:
 * clients and Placement's own tests match them, so they are worded as the
 * real service words them. The one home of these texts, but for those a
 * Store's write rule raises too (kept with the rule, re-used here).
 */
import { traitsNotFoundText } from "../rules/writes/provider-traits.js";

/** Placement's refusal texts, by case (see the file's comment). */
export const providerMessages = {
  /** 404: the provider named in the URL (or a reshape's inventories) does not exist. */
  notFound: (uuid: string) => `No resource provider with uuid ${uuid} found`,
  /** 409: a create or update would give a provider a name another provider has. */
  nameTaken: (name: string) => `Conflicting resource provider name: ${name} already exists.`,
  /** 409: a create names a UUID a provider already has. */
  uuidTaken: (uuid: string) => `Conflicting resource provider uuid: ${uuid} already exists.`,
  /** 400: a create or update names a parent provider that does not exist. */
  parentMissing: () => "parent provider UUID does not exist.",
  /** 400: a create names the new provider as its own parent. */
  selfParent: (name: string, uuid: string) =>
    `Unable to create resource provider "${name}", ${uuid}: parent provider UUID cannot be same as UUID. Please choose different parent provider UUID.`,
  /** 400: an update would remove a provider's parent. */
  unparent: (uuid: string) =>
    `Unable to save resource provider ${uuid}: Object action update failed because: un-parenting a provider is not currently allowed.`,
  /** 404: the provider to delete does not exist. */
  notFoundForDelete: (uuid: string) => `No resource provider with uuid ${uuid} found for delete`,
  /** 400: an update would make a provider its own ancestor. */
  loop: () => "creating loop in the provider tree is not allowed.",
  /** 400: an update would move a provider under another parent. */
  reparent: (uuid: string) =>
    `Unable to save resource provider ${uuid}: Object action update failed because: re-parenting a provider is not currently allowed.`,
  /** 409: the provider to delete still has child providers. */
  hasChildren: (uuid: string) =>
    `Unable to delete parent resource provider ${uuid}: It has child resource providers.`,
  /** 409: the provider's generation moved since the caller read it (inventories, aggregates, updates). */
  generationConflict: () => "resource provider generation conflict",
  /** 409: a traits write names a provider generation that is no longer current. */
  traitsGenerationConflict: () =>
    "Resource provider's generation already changed. Please update the generation and try again.",
  /** 400: an inventories write names a resource class that does not exist. */
  unknownClass: (uuid: string, resourceClass: string) =>
    `Unknown resource class in inventory for resource provider ${uuid}: ${resourceClass}`,
  /**
   * 400: an inventory's values are inconsistent (e.g. reserved above total, min_unit above
   * max_unit); `detail` says which.
   */
  badInventory: (action: "create" | "update", uuid: string, detail: string) =>
    `Unable to ${action} inventory for resource provider ${uuid}: ${detail}`,
  /** 409: a `POST .../inventories` adds a class the provider already has. */
  inventoryExists: (uuid: string, resourceClass: string) =>
    `Update conflict: Inventory for '${resourceClass}' on resource provider '${uuid}' already exists.`,
  /** 404: a read of one class's inventory the provider does not have. */
  noInventory: (uuid: string, resourceClass: string) => `No inventory of class ${resourceClass} for ${uuid}`,
  /** 400: a `PUT .../inventories/CLASS` updates a class the provider has no inventory of. */
  noInventoryToUpdate: (uuid: string, resourceClass: string) =>
    `No inventory record with resource class ${resourceClass} for resource provider ${uuid}`,
  /** 404: a `DELETE .../inventories/CLASS` removes a class the provider has no inventory of. */
  noInventoryToDelete: (resourceClass: string) => `No inventory of class ${resourceClass} found for delete`,
  /** 400: a single-class write or a reshape names a resource class that does not exist. */
  noSuchClass: (resourceClass: string) => `No such resource class ${resourceClass}`,
  /** 404: the custom trait to delete does not exist. */
  traitNotFound: (name: string) => `No such trait(s): ${name}`,
  /** 400: a `PUT /traits/NAME` names a trait that is not a valid custom trait name. */
  traitInvalid: () =>
    'The trait is invalid. A valid trait must be no longer than 255 characters, start with the prefix "CUSTOM_" and use following characters: "A"-"Z", "0"-"9" and "_"',
  /** 400: a traits write names traits that do not exist (all of them listed). */
  traitsNotFound: traitsNotFoundText,
  /** 409: the custom trait to delete is still set on a provider. */
  traitInUse: (name: string) => `The trait ${name} is in use by a resource provider.`,
  /** 400: a delete names a standard (non-`CUSTOM_`) trait. */
  traitStandard: (name: string) => `Cannot delete standard trait ${name}.`,
  /** 409: the provider to delete still has allocations. */
  providerInUse: (uuid: string) =>
    `Unable to delete resource provider ${uuid}: Resource provider has allocations.`,
  /** 409: an inventories write would remove classes the provider has allocations of (listed). */
  inventoryInUse: (uuid: string, classes: readonly string[]) =>
    `Inventory for '${classes.join(", ")}' on resource provider '${uuid}' in use.`,
  /** 400: an allocations write (or reshape) allocates on a provider that does not exist. */
  allocationProviderMissing: (uuid: string) =>
    `Allocation for resource provider '${uuid}' that does not exist.`,
  /** 400: an allocations write names a resource class that does not exist. */
  allocationClassMissing: (consumer: string, resourceClass: string) =>
    `Unable to allocate inventory for consumer ${consumer}: No such resource class ${resourceClass}.`,
  /** 404: the consumer whose allocations are asked for has none. */
  noAllocations: (consumer: string) => `No allocations for consumer '${consumer}'`,
  /** 409: an allocation would take a provider's class beyond its capacity. */
  overCapacity: (consumer: string, resourceClass: string, provider: string) =>
    `Unable to allocate inventory for consumer ${consumer}: Unable to create allocation for '${resourceClass}' on resource provider '${provider}'. The requested amount would exceed the capacity.`,
  /** 409: an allocation asks for a class the provider has no inventory of. */
  noInventoryToAllocate: (resourceClass: string, provider: string) =>
    `Unable to allocate inventory: Inventory for '${resourceClass}' on resource provider '${provider}' invalid.`,
  /** 400: an allocation's amount breaks the inventory's min_unit, max_unit or step_size. */
  unitConstraints: (resourceClass: string, provider: string) =>
    `Unable to allocate inventory: Allocation for '${resourceClass}' on resource provider '${provider}' violates min_unit, max_unit, or step_size.`,
  /** 409: an update would rename or re-parent the root provider of a Berth cluster member. */
  memberRootFixed: (uuid: string, member: string) =>
    `Resource provider ${uuid} is the Berth cluster member ${member}: its name and place in the tree are the member's (change them through the cluster API).`,
  /** 409: a delete names the root provider of a Berth cluster member. */
  memberRootDelete: (uuid: string, member: string) =>
    `Unable to delete resource provider ${uuid}: it is the Berth cluster member ${member} (remove the member through the cluster API).`,
} as const;
