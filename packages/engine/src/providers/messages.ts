/**
 * Placement's texts for provider, inventory, trait and aggregate refusals:
 * clients and Placement's own tests match them, so they are worded as the
 * real service words them. The one home of these texts.
 */
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
  traitsNotFound: (names: readonly string[]) => `No such trait(s): ${names.join(", ")}.`,
  traitInUse: (name: string) => `The trait ${name} is in use by a resource provider.`,
  traitStandard: (name: string) => `Cannot delete standard trait ${name}.`,
} as const;
