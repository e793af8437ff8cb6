/**
 * Shapes of the objects a scriptlet sees, named and ordered like the Go
 * structs LXD/Incus marshal (type names show in `type(x)`, field order in
 * `repr(x)`). A schema decides what plain JS data becomes: a struct becomes a
 * read-only object, a map a dict, an array a list, and an absent field the
 * zero value of its kind (`None` for scalars, `[]`, `{}`, or an object of
 * absent fields for a nested struct).
 */

export type FieldKind =
  /** string/int/bool by the JS value; absent -> None. */
  | { readonly k: "scalar" }
  /** Always a Starlark float (1 stays 1.0); absent -> None. */
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
   * nested plain objects become open structs too. Absent -> None.
   */
  | { readonly k: "open"; readonly typeName: string };

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

const scalar: FieldKind = { k: "scalar" };
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
  ["type", scalar],
  ["certificate", scalar],
  ["alias", scalar],
  ["fingerprint", scalar],
  ["properties", stringMap],
  ["server", scalar],
  ["secret", scalar],
  ["protocol", scalar],
  ["base-image", scalar],
  ["mode", scalar],
  ["operation", scalar],
  ["secrets", stringMap],
  ["source", scalar],
  ["live", scalar],
  ["instance_only", scalar],
  ["refresh", scalar],
  ["refresh_exclude_older", scalar],
  ["project", scalar],
  ["allow_inconsistent", scalar],
]);

export const instancePlacementSchema = schema("InstancePlacement", [
  ["architecture", scalar],
  ["config", stringMap],
  ["devices", deviceMap],
  ["ephemeral", scalar],
  ["profiles", stringList],
  ["restore", scalar],
  ["stateful", scalar],
  ["description", scalar],
  ["disk_only", scalar],
  ["name", scalar],
  ["source", { k: "object", schema: instanceSourceSchema }],
  ["instance_type", scalar],
  ["type", scalar],
  ["start", scalar],
  ["reason", scalar],
  ["project", scalar],
]);

export const clusterMemberSchema = schema("ClusterMember", [
  ["server_name", scalar],
  ["url", scalar],
  ["database", scalar],
  ["status", scalar],
  ["message", scalar],
  ["architecture", scalar],
  ["roles", stringList],
  ["failure_domain", scalar],
  ["description", scalar],
  ["config", stringMap],
  ["groups", stringList],
]);

export const sysInfoSchema = schema("ClusterMemberSysInfo", [
  ["uptime", scalar],
  ["load_averages", float64List],
  ["total_ram", scalar],
  ["free_ram", scalar],
  ["shared_ram", scalar],
  ["buffered_ram", scalar],
  ["total_swap", scalar],
  ["free_swap", scalar],
  ["processes", scalar],
  ["logical_cpus", scalar],
]);

const poolSpaceSchema = schema("ResourcesStoragePoolSpace", [
  ["used", scalar],
  ["total", scalar],
]);
const poolInodesSchema = schema("ResourcesStoragePoolInodes", [
  ["used", scalar],
  ["total", scalar],
]);

export const storagePoolStateSchema = schema("StoragePoolState", [
  ["space", { k: "object", schema: poolSpaceSchema }],
  ["inodes", { k: "object", schema: poolInodesSchema }],
]);

export const clusterMemberStateSchema = schema("ClusterMemberState", [
  ["sysinfo", { k: "object", schema: sysInfoSchema }],
  ["storage_pools", { k: "map", of: { k: "object", schema: storagePoolStateSchema } }],
]);

export const resourcesSchema = schema("Resources", [
  ["cpu", { k: "open", typeName: "ResourcesCPU" }],
  ["memory", { k: "open", typeName: "ResourcesMemory" }],
  ["gpu", { k: "open", typeName: "ResourcesGPU" }],
  ["network", { k: "open", typeName: "ResourcesNetwork" }],
  ["storage", { k: "open", typeName: "ResourcesStorage" }],
  ["usb", { k: "open", typeName: "ResourcesUSB" }],
  ["pci", { k: "open", typeName: "ResourcesPCI" }],
  ["system", { k: "open", typeName: "ResourcesSystem" }],
  ["load", { k: "open", typeName: "ResourcesLoad" }],
  ["serial", { k: "open", typeName: "ResourcesSerial" }],
]);

export const instanceResourcesSchema = schema("InstanceResources", [
  ["cpu_cores", scalar],
  ["memory_size", scalar],
  ["root_disk_size", scalar],
  ["resource_classes", stringMap],
]);

export const instanceSchema = schema("Instance", [
  ["architecture", scalar],
  ["config", stringMap],
  ["devices", deviceMap],
  ["ephemeral", scalar],
  ["profiles", stringList],
  ["stateful", scalar],
  ["description", scalar],
  ["created_at", scalar],
  ["expanded_config", stringMap],
  ["expanded_devices", deviceMap],
  ["name", scalar],
  ["status", scalar],
  ["status_code", scalar],
  ["last_used_at", scalar],
  ["location", scalar],
  ["type", scalar],
  ["project", scalar],
]);

export const projectSchema = schema("Project", [
  ["config", stringMap],
  ["description", scalar],
  ["name", scalar],
  ["used_by", stringList],
]);
