/**
 * Placement's texts for provider, inventory, trait and aggregate refusals:
 * clients and Placement's own tests match them, so they are worded as the
 * real service words them. The one home of these texts, but for those a
 * Store's write rule raises too (kept with the rule, re-used here).
 */
import { traitsNotFoundText } from "../rules/writes/provider-traits.js";

/** Placement's refusal texts, by case (see the file's comment). */
export const providerMessages = {
  notFound: (uuid: string) => `No resource provider with uuid ${uuid} found`,
  nameTaken: (name: string) => `Conflicting resource provider name: ${name} already exists.`,
  uuidTaken: (uuid: string) => `Conflicting resource provider uuid: ${uuid} already exists.`,
  parentMissing: () => "parent provider UUID does not exist.",
  selfParent: (name: string, uuid: string) =>
    `Unable to create resource provider "${name}", ${uuid}: parent provider UUID cannot be same as UUID. Please choose different parent provider UUID.`,
  unparent: (uuid: string) =>
    `Unable to save resource provider ${uuid}: Object action update failed because: un-parenting a provider is not currently allowed.`,
  notFoundForDelete: (uuid: string) => `No resource provider with uuid ${uuid} found for delete`,
  loop: () => "creating loop in the provider tree is not allowed.",
  reparent: (uuid: string) =>
    `Unable to save resource provider ${uuid}: Object action update failed because: re-parenting a provider is not currently allowed.`,
  hasChildren: (uuid: string) =>
    `Unable to delete parent resource provider ${uuid}: It has child resource providers.`,
  generationConflict: () => "resource provider generation conflict",
  traitsGenerationConflict: () =>
    "Resource provider's generation already changed. Please update the generation and try again.",
  unknownClass: (uuid: string, resourceClass: string) =>
    `Unknown resource class in inventory for resource provider ${uuid}: ${resourceClass}`,
  badInventory: (action: "create" | "update", uuid: string, detail: string) =>
    `Unable to ${action} inventory for resource provider ${uuid}: ${detail}`,
  inventoryExists: (uuid: string, resourceClass: string) =>
    `Update conflict: Inventory for '${resourceClass}' on resource provider '${uuid}' already exists.`,
  noInventory: (uuid: string, resourceClass: string) => `No inventory of class ${resourceClass} for ${uuid}`,
  noInventoryToUpdate: (uuid: string, resourceClass: string) =>
    `No inventory record with resource class ${resourceClass} for resource provider ${uuid}`,
  noInventoryToDelete: (resourceClass: string) => `No inventory of class ${resourceClass} found for delete`,
  noSuchClass: (resourceClass: string) => `No such resource class ${resourceClass}`,
  traitNotFound: (name: string) => `No such trait(s): ${name}`,
  traitInvalid: () =>
    'The trait is invalid. A valid trait must be no longer than 255 characters, start with the prefix "CUSTOM_" and use following characters: "A"-"Z", "0"-"9" and "_"',
  traitsNotFound: traitsNotFoundText,
  traitInUse: (name: string) => `The trait ${name} is in use by a resource provider.`,
  traitStandard: (name: string) => `Cannot delete standard trait ${name}.`,
  providerInUse: (uuid: string) =>
    `Unable to delete resource provider ${uuid}: Resource provider has allocations.`,
  inventoryInUse: (uuid: string, classes: readonly string[]) =>
    `Inventory for '${classes.join(", ")}' on resource provider '${uuid}' in use.`,
  allocationProviderMissing: (uuid: string) =>
    `Allocation for resource provider '${uuid}' that does not exist.`,
  allocationClassMissing: (consumer: string, resourceClass: string) =>
    `Unable to allocate inventory for consumer ${consumer}: No such resource class ${resourceClass}.`,
  noAllocations: (consumer: string) => `No allocations for consumer '${consumer}'`,
  overCapacity: (consumer: string, resourceClass: string, provider: string) =>
    `Unable to allocate inventory for consumer ${consumer}: Unable to create allocation for '${resourceClass}' on resource provider '${provider}'. The requested amount would exceed the capacity.`,
  noInventoryToAllocate: (resourceClass: string, provider: string) =>
    `Unable to allocate inventory: Inventory for '${resourceClass}' on resource provider '${provider}' invalid.`,
  unitConstraints: (resourceClass: string, provider: string) =>
    `Unable to allocate inventory: Allocation for '${resourceClass}' on resource provider '${provider}' violates min_unit, max_unit, or step_size.`,
  memberRootFixed: (uuid: string, member: string) =>
    `Resource provider ${uuid} is the Berth cluster member ${member}: its name and place in the tree are the member's (change them through the cluster API).`,
  memberRootDelete: (uuid: string, member: string) =>
    `Unable to delete resource provider ${uuid}: it is the Berth cluster member ${member} (remove the member through the cluster API).`,
} as const;
