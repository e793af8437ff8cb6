import { describe, expect, it } from "vitest";
import { InstancePlacementSchema, InstanceResourcesSchema } from "./scriptlet.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

/**
 * The request object a user logged from the pre-release LXD scriptlet (seed 001, forum thread).
 * That build marshalled Go struct tags verbatim, so keys carry a ",omitempty" suffix.
 * Python-style False is rewritten to JSON false; everything else is as posted.
 */
const seed001MarshalledRequest = JSON.parse(
  '{"architecture": "x86_64", "config": {"limits.cpu": "4", "limits.memory": "8192MB"}, "devices": {"root": {"path": "/", "pool": "remote", "type": "disk"}, "eth0": {"type": "nic", "name": "eth0", "nictype": "bridged", "parent": "br0"}}, "ephemeral": False, "profiles": ["default"], "restore,omitempty": "", "stateful": False, "description": "", "name": "test3", "source": {"type": "image", "certificate": "", "alias,omitempty": "ubuntu/22.04", "fingerprint,omitempty": "", "properties,omitempty": {}, "server,omitempty": "https://images.linuxcontainers.org", "secret,omitempty": "", "protocol,omitempty": "simplestreams", "base-image,omitempty": "", "mode,omitempty": "pull", "operation,omitempty": "", "secrets,omitempty": {}, "source,omitempty": "", "live,omitempty": False, "instance_only,omitempty": False, "container_only,omitempty": False, "refresh,omitempty": False, "project,omitempty": "", "allow_inconsistent": False}, "instance_type": "c4-m8", "type": "virtual-machine"}'.replaceAll(
    "False",
    "false",
  ),
) as Record<string, unknown>;

/** The same request as LXD 5.11+ builds it: JSON names without suffixes, plus reason and project. */
function releasedForm(marshalled: Record<string, unknown>): Record<string, unknown> {
  const strip = (value: unknown): unknown => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k.replace(",omitempty", ""),
        strip(v),
      ]),
    );
  };
  return { ...(strip(marshalled) as Record<string, unknown>), reason: "new", project: "default" };
}

describe("InstancePlacement (the scriptlet's request)", () => {
  it("accepts the seed 001 request in the released field naming", () => {
    const result = parseBody(InstancePlacementSchema, releasedForm(seed001MarshalledRequest));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.instance_type).toBe("c4-m8");
      expect(result.value.config["limits.memory"]).toBe("8192MB");
    }
  });

  it("rejects the pre-release marshalling's suffixed keys as unknown fields", () => {
    const result = parseBody(InstancePlacementSchema, {
      ...seed001MarshalledRequest,
      reason: "new",
      project: "default",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.issues[0]?.message).toBe('Unknown field "restore,omitempty"');
    expect(result.error.issues.map((issue) => issue.path)).toContain("source.alias,omitempty");
  });

  it("accepts every reason, including Incus's rebalance, and an any-type relocation", () => {
    for (const reason of ["new", "evacuation", "relocation", "rebalance"]) {
      const body = {
        name: "c1",
        type: "",
        config: {},
        devices: {},
        profiles: [],
        reason,
        project: "default",
      };
      expect(parseBody(InstancePlacementSchema, body).ok).toBe(true);
    }
  });

  it("requires reason and project, and only known reasons", () => {
    const base = { name: "c1", type: "container", config: {}, devices: {}, profiles: [] };
    expect(errorOf(parseBody(InstancePlacementSchema, { ...base, project: "default" }))).toBe(
      'Missing field "reason"',
    );
    expect(
      errorOf(parseBody(InstancePlacementSchema, { ...base, reason: "create", project: "default" })),
    ).toBe('Invalid field "reason": expected one of "new", "evacuation", "relocation", "rebalance"');
  });
});

describe("InstanceResources (get_instance_resources)", () => {
  it("accepts the LXD test suite's expectation plus Berth's resource classes", () => {
    const value = {
      cpu_cores: 1,
      memory_size: 536870912,
      root_disk_size: 209715200,
      resource_classes: { VCPU: 1, MEMORY_MB: 512, DISK_GB: 1, CUSTOM_BAREMETAL_GOLD: 1 },
    };
    expect(parseBody(InstanceResourcesSchema, value)).toEqual({ ok: true, value });
  });

  it("rejects negative amounts and lower-case classes", () => {
    const base = { cpu_cores: 1, memory_size: 0, root_disk_size: 0, resource_classes: {} };
    expect(errorOf(parseBody(InstanceResourcesSchema, { ...base, cpu_cores: -1 }))).toBe(
      'Invalid field "cpu_cores": must be at least 0',
    );
    expect(errorOf(parseBody(InstanceResourcesSchema, { ...base, resource_classes: { vcpu: 1 } }))).toBe(
      'Invalid key "vcpu" in field "resource_classes": must be 1-255 characters of upper-case letters, digits and underscores (a standard class or CUSTOM_*)',
    );
  });
});
