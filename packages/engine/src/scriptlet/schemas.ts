/**
 * Shapes of the objects a scriptlet sees, named and ordered like the Go
 * structs LXD/Incus marshal (type names show in `type(x)`, field order in
 * `repr(x)`). A schema decides what plain JS data becomes: a struct becomes a
 * read-only object, a map a dict, an array a list, and an absent field the
 * zero value of its Go type (`""`, `0`, `False`, `0.0`, `[]`, `{}`, or an
 * object of zero fields for a nested struct; `None` only for Go pointers),
 * as LXD/Incus marshal their `api` structs: a scriptlet never reads `None`
 * where Go has a value.
 */

export type FieldKind =
  /**
   * string/int/bool by the JS value; absent -> `zero`, Go's zero value of the
   * field's type (`""`, `0`, `False`): a Go struct field is never nil. No
   * `zero` (a pointer field) -> None.
   */
  | { readonly k: "scalar"; readonly zero?: string | number | boolean }
  /** Always a Starlark float (1 stays 1.0); absent -> 0.0. */
  | { readonly k: "float" }
  /** List of plain values (strings, numbers, nested plain data); absent -> []. */
  | { readonly k: "list"; readonly of?: FieldKind }
  /** Dict with string keys (sorted, as LXD marshals maps); absent -> {}. */
  | { readonly k: "map"; readonly of?: FieldKind }
  /** A nested struct; absent -> an object whose fields are all absent (Go structs are never nil). */
  | { readonly k: "object"; readonly schema: ObjectSchema }
  /**
   * A struct whose fields are whatever keys the data has (deep LXD structs
   * such as `api.Resources` whose inner shapes vary between versions);
   * nested plain objects become open structs too. `known` lists the Go
   * struct's own fields: they come first, in order, read by their kind
   * (absent -> zero value), and an absent open struct with `known` reads as
   * one of zero fields. Without `known`, absent -> None.
   */
  | { readonly k: "open"; readonly typeName: string; readonly known?: ObjectSchema };

export interface ObjectSchema {
  readonly typeName: string;
  /** Field name -> kind, in repr order. */
  readonly fields: ReadonlyMap<string, FieldKind>;
  /**
   * Field name -> position in `fields` (objects cache converted containers by
   * slot). A null-prototype object rather than a Map: attribute names come
   * from the scriptlet's source as internalized strings, which V8 looks up in
   * a dictionary object faster than Map.get hashes them.
   */
  readonly slots: Readonly<Record<string, number | undefined>>;
  /** Kinds by slot. */
  readonly kinds: readonly FieldKind[];
  /**
   * The field read last and its slot: a scriptlet loop reads the same field
   * of object after object, and comparing the name with the last one costs
   * less than the dictionary lookup (objects.ts slotOf).
   */
  readonly lastRead: { name: string; slot: number };
}

/** Go `string`, integer kinds and `bool`. */
const str: FieldKind = { k: "scalar", zero: "" };
const int: FieldKind = { k: "scalar", zero: 0 };
const bool: FieldKind = { k: "scalar", zero: false };
const float: FieldKind = { k: "float" };
const stringList: FieldKind = { k: "list" };
const stringMap: FieldKind = { k: "map" };
const float64List: FieldKind = { k: "list", of: float };
/** Devices: name -> (key -> value). */
const deviceMap: FieldKind = { k: "map", of: { k: "map" } };

function schema(typeName: string, fields: [string, FieldKind][]): ObjectSchema {
  return {
    typeName,
    fields: new Map(fields),
    slots: Object.assign(
      Object.create(null) as Record<string, number>,
      Object.fromEntries(fields.map(([name], i) => [name, i])),
    ),
    kinds: fields.map(([, kind]) => kind),
    lastRead: { name: fields[0]?.[0] ?? "", slot: 0 },
  };
}

export const instanceSourceSchema = schema("InstanceSource", [
  ["type", str],
  ["certificate", str],
  ["alias", str],
  ["fingerprint", str],
  ["properties", stringMap],
  ["server", str],
  ["secret", str],
  ["protocol", str],
  ["base-image", str],
  ["mode", str],
  ["operation", str],
  ["secrets", stringMap],
  ["source", str],
  ["live", bool],
  ["instance_only", bool],
  ["refresh", bool],
  ["refresh_exclude_older", bool],
  ["project", str],
  ["allow_inconsistent", bool],
]);

export const instancePlacementSchema = schema("InstancePlacement", [
  ["architecture", str],
  ["config", stringMap],
  ["devices", deviceMap],
  ["ephemeral", bool],
  ["profiles", stringList],
  ["restore", str],
  ["stateful", bool],
  ["description", str],
  ["disk_only", bool],
  ["name", str],
  ["source", { k: "object", schema: instanceSourceSchema }],
  ["instance_type", str],
  ["type", str],
  ["start", bool],
  ["reason", str],
  ["project", str],
]);

export const clusterMemberSchema = schema("ClusterMember", [
  ["server_name", str],
  ["url", str],
  ["database", bool],
  ["status", str],
  ["message", str],
  ["architecture", str],
  ["roles", stringList],
  ["failure_domain", str],
  ["description", str],
  ["config", stringMap],
  ["groups", stringList],
]);

export const sysInfoSchema = schema("ClusterMemberSysInfo", [
  ["uptime", int],
  ["load_averages", float64List],
  ["total_ram", int],
  ["free_ram", int],
  ["shared_ram", int],
  ["buffered_ram", int],
  ["total_swap", int],
  ["free_swap", int],
  ["processes", int],
  ["logical_cpus", int],
]);

const poolSpaceSchema = schema("ResourcesStoragePoolSpace", [
  ["used", int],
  ["total", int],
]);
const poolInodesSchema = schema("ResourcesStoragePoolInodes", [
  ["used", int],
  ["total", int],
]);

export const storagePoolStateSchema = schema("StoragePoolState", [
  ["space", { k: "object", schema: poolSpaceSchema }],
  ["inodes", { k: "object", schema: poolInodesSchema }],
]);

export const clusterMemberStateSchema = schema("ClusterMemberState", [
  ["sysinfo", { k: "object", schema: sysInfoSchema }],
  ["storage_pools", { k: "map", of: { k: "object", schema: storagePoolStateSchema } }],
]);

/** An `api.Resources` part: its own Go fields typed, whatever else the data has kept open. */
function resourcesPart(typeName: string, fields: [string, FieldKind][]): FieldKind {
  return { k: "open", typeName, known: schema(typeName, fields) };
}

/** `LIST` + `total`, the shape of the GPU/network/storage/USB/PCI/serial parts; list elements stay open. */
function deviceCount(typeName: string, listName: string, elementType: string): FieldKind {
  return resourcesPart(typeName, [
    [listName, { k: "list", of: { k: "open", typeName: elementType } }],
    ["total", int],
  ]);
}

export const resourcesSchema = schema("Resources", [
  [
    "cpu",
    resourcesPart("ResourcesCPU", [
      ["architecture", str],
      ["sockets", { k: "list", of: { k: "open", typeName: "ResourcesCPUSocket" } }],
      ["total", int],
    ]),
  ],
  [
    "memory",
    resourcesPart("ResourcesMemory", [
      ["nodes", { k: "list", of: { k: "open", typeName: "ResourcesMemoryNode" } }],
      ["hugepages_total", int],
      ["hugepages_used", int],
      ["hugepages_size", int],
      ["used", int],
      ["total", int],
    ]),
  ],
  ["gpu", deviceCount("ResourcesGPU", "cards", "ResourcesGPUCard")],
  ["network", deviceCount("ResourcesNetwork", "cards", "ResourcesNetworkCard")],
  ["storage", deviceCount("ResourcesStorage", "disks", "ResourcesStorageDisk")],
  ["usb", deviceCount("ResourcesUSB", "devices", "ResourcesUSBDevice")],
  ["pci", deviceCount("ResourcesPCI", "devices", "ResourcesPCIDevice")],
  [
    "system",
    resourcesPart("ResourcesSystem", [
      ["uuid", str],
      ["vendor", str],
      ["product", str],
      ["family", str],
      ["version", str],
      ["sku", str],
      ["serial", str],
      ["type", str],
      // Pointers in Go: None until the data has them.
      ["firmware", { k: "open", typeName: "ResourcesSystemFirmware" }],
      ["chassis", { k: "open", typeName: "ResourcesSystemChassis" }],
      ["motherboard", { k: "open", typeName: "ResourcesSystemMotherboard" }],
    ]),
  ],
  [
    "load",
    // Incus's ResourcesLoad has no JSON tags: the attribute names are the Go field names.
    resourcesPart("ResourcesLoad", [
      ["Average1Min", float],
      ["Average5Min", float],
      ["Average10Min", float],
      ["Processes", int],
    ]),
  ],
  ["serial", deviceCount("ResourcesSerial", "devices", "ResourcesSerialDevice")],
]);

export const instanceResourcesSchema = schema("InstanceResources", [
  ["cpu_cores", int],
  ["memory_size", int],
  ["root_disk_size", int],
  ["resource_classes", stringMap],
]);

export const instanceSchema = schema("Instance", [
  ["architecture", str],
  ["config", stringMap],
  ["devices", deviceMap],
  ["ephemeral", bool],
  ["profiles", stringList],
  ["stateful", bool],
  ["description", str],
  ["created_at", str],
  ["expanded_config", stringMap],
  ["expanded_devices", deviceMap],
  ["name", str],
  ["status", str],
  ["status_code", int],
  ["last_used_at", str],
  ["location", str],
  ["type", str],
  ["project", str],
]);

export const projectSchema = schema("Project", [
  ["config", stringMap],
  ["description", str],
  ["name", str],
  ["used_by", stringList],
]);
