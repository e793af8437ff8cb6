/**
 * The instance shapes this package reads, with LXD's JSON field names.
 * `config` and `devices` are the *expanded* maps (profiles applied,
 * instance values on top), as LXD hands them to the placement scriptlet.
 */
export type InstanceType = "container" | "virtual-machine" | "";

export type InstanceConfig = Readonly<Record<string, string>>;
export type InstanceDevice = Readonly<Record<string, string>>;
export type InstanceDevices = Readonly<Record<string, InstanceDevice>>;

export interface ExpandedInstance {
  readonly type: InstanceType;
  readonly config: InstanceConfig;
  readonly devices: InstanceDevices;
}

/** LXD `shared.IsRootDiskDevice`: a disk mounted at `/` with no `source`. */
export function isRootDiskDevice(device: InstanceDevice): boolean {
  return device.type === "disk" && device.path === "/" && (device.source ?? "") === "";
}

/**
 * The name of the one root disk device, or undefined when there is none or
 * more than one (LXD's `GetRootDiskDevice` errors then, and
 * `get_instance_resources` treats that as "no root disk").
 */
export function findRootDiskDevice(devices: InstanceDevices): string | undefined {
  let found: string | undefined;
  for (const name of Object.keys(devices)) {
    const device = devices[name] as InstanceDevice;
    if (!isRootDiskDevice(device)) continue;
    if (found !== undefined) return undefined;
    found = name;
  }
  return found;
}
