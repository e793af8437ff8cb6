/**
 * Which instances automatic rebalancing may move: Incus moves only
 * virtual machines whose `CanMigrate()` answers "live-migrate"
 * (api_cluster_rebalance.go; the rule is `canMigrate` in the instance
 * drivers): `cluster.evacuate=live-migrate`, or `cluster.evacuate` unset or
 * `auto` with `migration.stateful=true` and every device migratable.
 * Devices as Incus judges them: `none` and `tpm` move; a NIC moves when it
 * is on a managed network (`network=`; `nictype=ovn` always); a disk moves
 * when it is the root disk (`path=/`) or a virtual one (`source=cloud-init:`
 * or `agent:`). Incus also moves disks on remote pools (Ceph and the like);
 * Berth does not know a pool's driver, so such a disk keeps its VM in place
 * unless the VM says `cluster.evacuate=live-migrate`. Every other device
 * type (gpu, usb, pci, unix-*, proxy, ...) cannot migrate.
 */

/** The part of an instance this rule reads (expanded: profiles applied). */
export interface MigrationSubject {
  type: string;
  expandedConfig: Readonly<Record<string, string>>;
  expandedDevices: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && ["true", "1", "yes", "on"].includes(value.toLowerCase());
}

/** Why `device` cannot migrate, or undefined when it can. */
function deviceRefusal(name: string, device: Readonly<Record<string, string>>): string | undefined {
  switch (device.type) {
    case "none":
    case "tpm":
      return undefined;
    case "nic":
      if (device.nictype === "ovn" || (device.network ?? "") !== "") return undefined;
      return `its device "${name}" is a NIC outside a managed network`;
    case "disk": {
      const source = device.source ?? "";
      if (device.path === "/" || source.startsWith("cloud-init:") || source.startsWith("agent:"))
        return undefined;
      return `its disk "${name}" is not the root disk`;
    }
    default:
      return `its device "${name}" (${device.type ?? "no type"}) cannot migrate`;
  }
}

/** Why `instance` cannot live-migrate (a sentence fragment), or undefined when it can. */
export function liveMigrationRefusal(instance: MigrationSubject): string | undefined {
  if (instance.type !== "virtual-machine") return "it is not a virtual machine";
  const policy = instance.expandedConfig["cluster.evacuate"] ?? "auto";
  if (policy === "live-migrate") return undefined;
  if (policy !== "auto") return `its cluster.evacuate is "${policy}"`;
  for (const [name, device] of Object.entries(instance.expandedDevices)) {
    const refusal = deviceRefusal(name, device);
    if (refusal !== undefined) return refusal;
  }
  if (!isTrue(instance.expandedConfig["migration.stateful"])) return "migration.stateful is not true";
  return undefined;
}
