import { describe, expect, it } from "vitest";
import { liveMigrationRefusal, type MigrationSubject } from "./live-migration.js";

const vm = (
  config: Record<string, string>,
  devices: Record<string, Record<string, string>> = { root: { type: "disk", path: "/", pool: "default" } },
): MigrationSubject => ({ type: "virtual-machine", expandedConfig: config, expandedDevices: devices });

describe("which instances can live-migrate (Incus's canMigrate)", () => {
  it("takes a stateful VM whose devices all migrate", () => {
    expect(liveMigrationRefusal(vm({ "migration.stateful": "true" }))).toBeUndefined();
    expect(
      liveMigrationRefusal(
        vm(
          { "migration.stateful": "yes", "cluster.evacuate": "auto" },
          {
            root: { type: "disk", path: "/" },
            eth0: { type: "nic", network: "lxdbr0" },
            ovn: { type: "nic", nictype: "ovn", parent: "x" },
            config: { type: "disk", source: "cloud-init:config" },
            tpm: { type: "tpm" },
          },
        ),
      ),
    ).toBeUndefined();
  });

  it("takes any VM that asks for live migration with cluster.evacuate", () => {
    expect(
      liveMigrationRefusal(vm({ "cluster.evacuate": "live-migrate" }, { gpu: { type: "gpu" } })),
    ).toBeUndefined();
  });

  it("refuses containers, other evacuation policies, stateless VMs and unmovable devices", () => {
    expect(
      liveMigrationRefusal({
        type: "container",
        expandedConfig: { "migration.stateful": "true" },
        expandedDevices: {},
      }),
    ).toBe("it is not a virtual machine");
    expect(liveMigrationRefusal(vm({ "cluster.evacuate": "migrate", "migration.stateful": "true" }))).toBe(
      'its cluster.evacuate is "migrate"',
    );
    expect(liveMigrationRefusal(vm({}))).toBe("migration.stateful is not true");
    expect(
      liveMigrationRefusal(
        vm({ "migration.stateful": "true" }, { data: { type: "disk", source: "/srv", path: "/srv" } }),
      ),
    ).toBe('its disk "data" is not the root disk');
    expect(
      liveMigrationRefusal(
        vm({ "migration.stateful": "true" }, { eth0: { type: "nic", nictype: "bridged", parent: "br0" } }),
      ),
    ).toBe('its device "eth0" is a NIC outside a managed network');
    expect(liveMigrationRefusal(vm({ "migration.stateful": "true" }, { usb: { type: "usb" } }))).toBe(
      'its device "usb" (usb) cannot migrate',
    );
  });
});
