import { describe, expect, it } from "vitest";
import type { ProfileRecord } from "../store/records.js";
import { type ExpansionCatalog, expandRequest } from "./expand.js";

function catalogWith(profiles: Record<string, Record<string, string>>): ExpansionCatalog {
  return {
    profile: (name) =>
      profiles[name] === undefined
        ? undefined
        : ({
            name,
            project: "default",
            description: "",
            config: profiles[name],
            devices: {},
          } as ProfileRecord),
    flavor: () => undefined,
    imageByAlias: () => undefined,
    imageByFingerprint: () => undefined,
    defaultArchitecture: "",
  };
}

describe("expansion checks the config against LXD's key table", () => {
  it("refuses a typo in a limit, which would otherwise hold no resources", () => {
    expect(() =>
      expandRequest({ profiles: [], config: { "limits.cpuz": "2" } }, "i1", catalogWith({})),
    ).toThrow("Unknown configuration key: limits.cpuz");
  });

  it("checks the expanded config for the instance's type: a profile's VM-only key refuses a container", () => {
    const catalog = catalogWith({ vm: { "security.secureboot": "false" } });
    expect(() => expandRequest({ profiles: ["vm"] }, "c1", catalog)).toThrow(
      "Unknown configuration key: security.secureboot",
    );
    const vm = expandRequest({ profiles: ["vm"], type: "virtual-machine" }, "v1", catalog);
    expect(vm.expandedConfig["security.secureboot"]).toBe("false");
  });

  it("trusts a stored instance, which keeps what it holds", () => {
    const stored = expandRequest(
      { profiles: [], config: { "limits.cpu": "2", "foo.bar": "1" } },
      "old",
      catalogWith({}),
      "trust-stored",
    );
    expect(stored.resources.VCPU).toBe(2);
  });
});
