import { describe, expect, it } from "vitest";
import {
  InstanceCommitPostSchema,
  InstancePatchSchema,
  InstancePostSchema,
  InstancePutSchema,
  InstanceSchema,
  InstancesPostSchema,
} from "./instances.js";
import { instance, UUID_A } from "./testing/examples.fixture.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

describe("InstancesPost: request shapes from the seed documents", () => {
  it("accepts `lxc init images:ubuntu/jammy foo` (seed 000)", () => {
    const body = {
      name: "foo",
      source: {
        type: "image",
        alias: "ubuntu/jammy",
        server: "https://images.linuxcontainers.org",
        protocol: "simplestreams",
        mode: "pull",
      },
    };
    expect(parseBody(InstancesPostSchema, body)).toEqual({ ok: true, value: body });
  });

  it("accepts the VM create bodies of the forum thread, with and without instance_type (seed 001)", () => {
    const common = {
      architecture: "x86_64",
      devices: {
        root: { path: "/", pool: "remote", type: "disk" },
        eth0: { type: "nic", name: "eth0", nictype: "bridged", parent: "br0" },
      },
      ephemeral: false,
      profiles: ["default"],
      stateful: false,
      description: "",
      type: "virtual-machine",
      source: {
        type: "image",
        certificate: "",
        alias: "ubuntu/22.04",
        server: "https://images.linuxcontainers.org",
        protocol: "simplestreams",
        mode: "pull",
        allow_inconsistent: false,
      },
    };
    const test2 = { ...common, name: "test2", config: {}, instance_type: "" };
    const test3 = {
      ...common,
      name: "test3",
      config: { "limits.cpu": "4", "limits.memory": "8192MB" },
      instance_type: "c4-m8",
    };
    expect(parseBody(InstancesPostSchema, test2).ok).toBe(true);
    expect(parseBody(InstancesPostSchema, test3).ok).toBe(true);
  });

  it("accepts the LXD test suite's `-c limits.memory=512MiB -c limits.cpu=1 -d root,size=200MiB`", () => {
    const body = {
      name: "c1",
      config: { "limits.memory": "512MiB", "limits.cpu": "1" },
      devices: { root: { type: "disk", path: "/", pool: "data", size: "200MiB" } },
      source: { type: "image", fingerprint: "testimage" },
    };
    expect(parseBody(InstancesPostSchema, body).ok).toBe(true);
  });

  it("accepts a profile-only request (`-p foo`) and a flavor request", () => {
    expect(parseBody(InstancesPostSchema, { name: "c2", profiles: ["default", "foo"] }).ok).toBe(true);
    expect(
      parseBody(InstancesPostSchema, { name: "node-7", flavor: "baremetal-gold", type: "virtual-machine" })
        .ok,
    ).toBe(true);
  });

  it("accepts a reservation with nothing but the flag, as Ganeti allows (seed 004)", () => {
    expect(parseBody(InstancesPostSchema, { forthcoming: true })).toEqual({
      ok: true,
      value: { forthcoming: true },
    });
    expect(parseBody(InstancesPostSchema, { forthcoming: true, uuid: UUID_A, flavor: "m1.small" }).ok).toBe(
      true,
    );
  });

  it("accepts joining a placement group through config", () => {
    expect(parseBody(InstancesPostSchema, { name: "web1", config: { "placement.group": "web" } }).ok).toBe(
      true,
    );
  });

  it("accepts an empty body (LXD generates a name)", () => {
    expect(parseBody(InstancesPostSchema, {}).ok).toBe(true);
  });
});

describe("InstancesPost: rejections name the field", () => {
  it("rejects a bad instance name with the rule", () => {
    expect(errorOf(parseBody(InstancesPostSchema, { name: "1web" }))).toBe(
      'Invalid field "name": must be 1-63 characters of letters, digits and hyphens, start with a letter and not end with a hyphen',
    );
    expect(parseBody(InstancesPostSchema, { name: "web-" }).ok).toBe(false);
    expect(parseBody(InstancesPostSchema, { name: "a".repeat(64) }).ok).toBe(false);
    expect(parseBody(InstancesPostSchema, { name: "a".repeat(63) }).ok).toBe(true);
  });

  it("rejects an unknown type", () => {
    expect(errorOf(parseBody(InstancesPostSchema, { type: "vm" }))).toBe(
      'Invalid field "type": expected one of "container", "virtual-machine", ""',
    );
  });

  it("rejects non-string config and device values, naming the key", () => {
    expect(errorOf(parseBody(InstancesPostSchema, { config: { "limits.cpu": 4 } }))).toBe(
      'Invalid field "config.limits.cpu": expected string, got number',
    );
    expect(errorOf(parseBody(InstancesPostSchema, { devices: { root: { size: 10 } } }))).toBe(
      'Invalid field "devices.root.size": expected string, got number',
    );
  });

  it("never lets a __proto__ key reach the parsed maps", () => {
    // zod skips "__proto__" keys of records (no prototype pollution); the key is dropped.
    const body = JSON.parse('{"config": {"__proto__": "x"}, "devices": {"__proto__": {"type": "disk"}}}');
    const result = parseBody(InstancesPostSchema, body);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Object.keys(result.value.config ?? {})).toEqual([]);
    expect(Object.getPrototypeOf(result.value.devices)).toBe(Object.prototype);
  });

  it("rejects `target` in the body: it is a query parameter", () => {
    expect(errorOf(parseBody(InstancesPostSchema, { name: "c1", target: "node1" }))).toBe(
      'Unknown field "target"',
    );
  });

  it("rejects unknown source fields with their path", () => {
    expect(errorOf(parseBody(InstancesPostSchema, { source: { type: "image", aliass: "x" } }))).toBe(
      'Unknown field "source.aliass"',
    );
  });

  it("rejects a bad uuid, flavor name, forthcoming flag and placement group", () => {
    expect(errorOf(parseBody(InstancesPostSchema, { forthcoming: true, uuid: "123" }))).toBe(
      'Invalid field "uuid": must be a valid uuid',
    );
    expect(errorOf(parseBody(InstancesPostSchema, { flavor: "" }))).toBe(
      'Invalid field "flavor": must be 1-255 characters of letters, digits, ".", "_", ":" and "-", starting with a letter or digit',
    );
    expect(errorOf(parseBody(InstancesPostSchema, { forthcoming: "yes" }))).toBe(
      'Invalid field "forthcoming": expected boolean, got string',
    );
    expect(errorOf(parseBody(InstancesPostSchema, { config: { "placement.group": "Web Servers" } }))).toBe(
      'Invalid field "config.placement.group": must name a placement group (letters, digits and hyphens, starting with a letter)',
    );
  });

  it("rejects profile names LXD forbids", () => {
    expect(errorOf(parseBody(InstancesPostSchema, { profiles: ["default", "a/b"] }))).toBe(
      'Invalid field "profiles[1]": must be 1-63 characters without "/", whitespace, control or bidi formatting characters, "?", "#", "%" or "\\", and not "." or ".."',
    );
    expect(parseBody(InstancesPostSchema, { profiles: [".."] }).ok).toBe(false);
  });

  it("rejects an architecture LXD does not know", () => {
    expect(parseBody(InstancesPostSchema, { architecture: "amd64" }).ok).toBe(false);
    expect(parseBody(InstancesPostSchema, { architecture: "" }).ok).toBe(true);
  });
});

describe("InstancePut / InstancePatch / InstancePost / InstanceCommitPost", () => {
  const put = {
    architecture: "x86_64",
    config: { "limits.cpu": "2" },
    devices: {},
    ephemeral: false,
    profiles: ["default"],
    stateful: false,
    description: "db",
  };

  it("accepts full and partial edits", () => {
    expect(parseBody(InstancePutSchema, put).ok).toBe(true);
    expect(parseBody(InstancePatchSchema, { config: { "limits.cpu": "4" } }).ok).toBe(true);
    expect(parseBody(InstancePatchSchema, {}).ok).toBe(true);
  });

  it("refuses create-only fields in a PUT", () => {
    expect(errorOf(parseBody(InstancePutSchema, { ...put, name: "x" }))).toBe('Unknown field "name"');
    expect(errorOf(parseBody(InstancePatchSchema, { source: {} }))).toBe('Unknown field "source"');
  });

  it("accepts renames and LXD move bodies, refuses bad names", () => {
    expect(parseBody(InstancePostSchema, { name: "c2" }).ok).toBe(true);
    expect(parseBody(InstancePostSchema, { migration: true, live: false }).ok).toBe(true);
    expect(errorOf(parseBody(InstancePostSchema, { name: "c_2" }))).toBe(
      'Invalid field "name": must be 1-63 characters of letters, digits and hyphens, start with a letter and not end with a hyphen',
    );
  });

  it("accepts a commit with or without a name", () => {
    expect(parseBody(InstanceCommitPostSchema, {}).ok).toBe(true);
    expect(parseBody(InstanceCommitPostSchema, { name: "web1" }).ok).toBe(true);
    expect(errorOf(parseBody(InstanceCommitPostSchema, { uuid: UUID_A }))).toBe('Unknown field "uuid"');
  });
});

describe("Instance", () => {
  it("accepts a stored instance and an unnamed reservation", () => {
    expect(parseBody(InstanceSchema, instance).ok).toBe(true);
    expect(parseBody(InstanceSchema, { ...instance, name: "", forthcoming: true }).ok).toBe(true);
  });

  it("refuses an unnamed real instance", () => {
    expect(errorOf(parseBody(InstanceSchema, { ...instance, name: "" }))).toBe(
      'Invalid field "name": only a reservation (forthcoming) may be unnamed',
    );
  });

  it("requires location and a proper timestamp", () => {
    const { location: _gone, ...withoutLocation } = instance;
    expect(errorOf(parseBody(InstanceSchema, withoutLocation))).toBe('Missing field "location"');
    expect(errorOf(parseBody(InstanceSchema, { ...instance, created_at: "yesterday" }))).toBe(
      'Invalid field "created_at": must be an RFC 3339 timestamp',
    );
  });
});
