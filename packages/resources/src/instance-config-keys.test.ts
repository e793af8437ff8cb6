import { describe, expect, it } from "vitest";
import { instanceConfigProblem } from "./instance-config-keys.js";

describe("instanceConfigProblem: LXD's instance config key table", () => {
  it("refuses a key LXD does not know, with LXD's text", () => {
    expect(instanceConfigProblem({ "limits.cpuz": "2" }, "container")).toBe(
      "Unknown configuration key: limits.cpuz",
    );
    expect(instanceConfigProblem({ "foo.bar": "1" }, "any")).toBe("Unknown configuration key: foo.bar");
    expect(instanceConfigProblem({ "limits.kernel.": "1" }, "container")).toBe(
      "Unknown configuration key: limits.kernel.",
    );
  });

  it("accepts the free-form namespaces and known keys", () => {
    const config = {
      "user.anything.at.all": "x",
      "environment.HTTP_PROXY": "http://proxy",
      "image.os": "debian",
      "volatile.evacuate.origin": "m1",
      "limits.kernel.nofile": "1024",
      "linux.sysctl.net.core.somaxconn": "4096",
      "limits.cpu": "0-3",
      "limits.memory": "50%",
      "security.nesting": "true",
      "cluster.evacuate": "stop",
      "placement.group": "web",
    };
    expect(instanceConfigProblem(config, "container")).toBeUndefined();
  });

  it("keeps container-only and VM-only keys to their type; a profile may hold both", () => {
    expect(instanceConfigProblem({ "security.secureboot": "false" }, "container")).toBe(
      "Unknown configuration key: security.secureboot",
    );
    expect(instanceConfigProblem({ "security.privileged": "true" }, "virtual-machine")).toBe(
      "Unknown configuration key: security.privileged",
    );
    expect(instanceConfigProblem({ "linux.sysctl.x": "1" }, "virtual-machine")).toBe(
      "Unknown configuration key: linux.sysctl.x",
    );
    expect(
      instanceConfigProblem({ "security.secureboot": "false", "security.privileged": "true" }, "any"),
    ).toBeUndefined();
  });

  it("keeps volatile and image keys off profiles, as LXD does", () => {
    expect(instanceConfigProblem({ "volatile.x": "1" }, "any")).toBe(
      "Volatile keys can only be set on instances",
    );
    expect(instanceConfigProblem({ "image.os": "x" }, "any")).toBe("Image keys can only be set on instances");
  });

  it("checks values of known keys with LXD's texts, naming the key", () => {
    expect(instanceConfigProblem({ "limits.memory": "abc%" }, "container")).toBe(
      'Invalid value for config "limits.memory": strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expect(instanceConfigProblem({ "limits.memory": "1.5GiB" }, "any")).toBe(
      'Invalid value for config "limits.memory": Invalid value: 1.5GiB',
    );
    expect(instanceConfigProblem({ "limits.memory": "0%" }, "any")).toBe(
      `Invalid value for config "limits.memory": Memory limit can't be 0%`,
    );
    expect(instanceConfigProblem({ "security.nesting": "maybe" }, "container")).toBe(
      'Invalid value for config "security.nesting": Invalid value for a boolean "maybe"',
    );
    expect(instanceConfigProblem({ "boot.autostart.priority": "high" }, "any")).toBe(
      'Invalid value for config "boot.autostart.priority": Invalid value for an integer "high"',
    );
    expect(instanceConfigProblem({ "limits.disk.priority": "11" }, "any")).toBe(
      'Invalid value for config "limits.disk.priority": Invalid value for a limit "11". Must be between 0 and 10',
    );
    expect(instanceConfigProblem({ "cluster.evacuate": "later" }, "any")).toBe(
      'Invalid value for config "cluster.evacuate": Invalid value "later" (not one of [auto migrate live-migrate stop])',
    );
    expect(instanceConfigProblem({ "limits.cpu.allowance": "25ms" }, "container")).toBe(
      'Invalid value for config "limits.cpu.allowance": Invalid allowance: 25ms',
    );
    expect(instanceConfigProblem({ "limits.cpu.allowance": "x%" }, "container")).toBe(
      'Invalid value for config "limits.cpu.allowance": strconv.Atoi: parsing "x": invalid syntax',
    );
    expect(instanceConfigProblem({ "security.idmap.size": "-1" }, "container")).toBe(
      'Invalid value for config "security.idmap.size": Invalid value for uint32 "-1": strconv.ParseUint: parsing "-1": invalid syntax',
    );
    expect(instanceConfigProblem({ "limits.cpu": "a-b" }, "any")).toMatch(
      /^Invalid value for config "limits.cpu": Invalid cpuset value "a-b"/,
    );
  });

  it("lets an empty value of a checked key through (LXD's validate.Optional)", () => {
    expect(
      instanceConfigProblem({ "limits.memory": "", "security.nesting": "", "limits.cpu": "" }, "container"),
    ).toBeUndefined();
  });
});
