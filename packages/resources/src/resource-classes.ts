import { err, ok, type Result } from "./result.js";

/**
 * The 21 standard resource classes of OpenStack Placement (os-resource-classes
 * STANDARDS). The order is the class id: Placement seeds its table with
 * id = index, so this list is append-only.
 */
export const STANDARD_RESOURCE_CLASSES = [
  "VCPU",
  "MEMORY_MB",
  "DISK_GB",
  "PCI_DEVICE",
  "SRIOV_NET_VF",
  "NUMA_SOCKET",
  "NUMA_CORE",
  "NUMA_THREAD",
  "NUMA_MEMORY_MB",
  "IPV4_ADDRESS",
  "VGPU",
  "VGPU_DISPLAY_HEAD",
  "NET_BW_EGR_KILOBIT_PER_SEC",
  "NET_BW_IGR_KILOBIT_PER_SEC",
  "PCPU",
  "MEM_ENCRYPTION_CONTEXT",
  "FPGA",
  "PGPU",
  "NET_PACKET_RATE_KILOPACKET_PER_SEC",
  "NET_PACKET_RATE_EGR_KILOPACKET_PER_SEC",
  "NET_PACKET_RATE_IGR_KILOPACKET_PER_SEC",
] as const;

export type StandardResourceClass = (typeof STANDARD_RESOURCE_CLASSES)[number];

/** Prefix every operator-defined class (and trait) must carry. */
export const CUSTOM_NAMESPACE = "CUSTOM_";

/** Placement gives custom classes ids from here on, so they never collide with standard ones. */
export const MIN_CUSTOM_RESOURCE_CLASS_ID = 10000;

/** Longest class or trait name Placement accepts (JSON schema maxLength, VARCHAR(255)). */
export const MAX_NAME_LENGTH = 255;

/** Any class name usable in inventories, allocations and queries (Placement RC_PATTERN). */
export const RESOURCE_CLASS_PATTERN = /^[A-Z0-9_]+$/;

/**
 * A class (or trait) that can be created through the API (Placement
 * CUSTOM_RC_PATTERN), at most MAX_NAME_LENGTH characters: the one home of
 * the CUSTOM_ name rule. The wire schemas leave it to `validateCustomName`,
 * so every way in answers with Placement's texts.
 */
export const CUSTOM_NAME_PATTERN = /^CUSTOM_[A-Z0-9_]+$/;

const STANDARD_IDS: ReadonlyMap<string, number> = new Map(
  STANDARD_RESOURCE_CLASSES.map((name, id) => [name, id]),
);

export function isStandardResourceClass(name: string): name is StandardResourceClass {
  return STANDARD_IDS.has(name);
}

/** os-resource-classes `is_custom`: a prefix test only, like upstream. */
export function isCustomResourceClass(name: string): boolean {
  return name.startsWith(CUSTOM_NAMESPACE);
}

/** The fixed id of a standard class, or undefined for anything else. */
export function standardResourceClassId(name: string): number | undefined {
  return STANDARD_IDS.get(name);
}

/** True when `name` may appear as a class in an inventory, allocation or request. */
export function isWellFormedResourceClass(name: string): boolean {
  return name.length <= MAX_NAME_LENGTH && RESOURCE_CLASS_PATTERN.test(name);
}

export type CustomNameError =
  | { readonly kind: "name-pattern"; readonly name: string; readonly message: string }
  | { readonly kind: "name-too-long"; readonly name: string; readonly message: string };

/**
 * Validates the name of a custom class or trait to be created. The messages
 * are Placement's JSON-schema failures ("JSON does not validate" +
 * "Failed validating 'pattern'" / "Failed validating 'maxLength'"), which the
 * upstream gabbi tests assert on. Standard names like VCPU fail the pattern.
 */
export function validateCustomName(name: string): Result<string, CustomNameError> {
  if (!CUSTOM_NAME_PATTERN.test(name)) {
    return err({
      kind: "name-pattern",
      name,
      message:
        `JSON does not validate: '${name}' does not match '${CUSTOM_NAME_PATTERN.source}'\n\n` +
        "Failed validating 'pattern' in schema['properties']['name']",
    });
  }
  if (name.length > MAX_NAME_LENGTH) {
    return err({
      kind: "name-too-long",
      name,
      message:
        `JSON does not validate: '${name}' is too long\n\n` +
        "Failed validating 'maxLength' in schema['properties']['name']",
    });
  }
  return ok(name);
}

/**
 * os-resource-classes / os-traits `normalize_name`: every run of characters
 * that are not ASCII letters or digits becomes one `_`, the result is
 * upper-cased and `CUSTOM_` is prepended (even when already present, and
 * without a length check, like upstream). Nova's ironic driver turns
 * `baremetal-gold` into `CUSTOM_BAREMETAL_GOLD` this way.
 */
export function normalizeCustomName(name: string): string {
  return CUSTOM_NAMESPACE + name.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase();
}

/** Message texts of the resource-class API that Placement clients know. */
export const resourceClassMessages = {
  conflict: (name: string) => `Conflicting resource class already exists: ${name}`,
  renameConflict: (name: string) => `Resource class already exists: ${name}`,
  cannotDeleteStandard: (name: string) => `Cannot delete standard resource class ${name}`,
  cannotUpdateStandard: (name: string) => `Cannot update standard resource class ${name}`,
  inUse: (name: string) => `Error in delete resource class '${name}': Class is in use in inventory`,
  notFound: (name: string) => `No such resource class ${name}`,
} as const;
