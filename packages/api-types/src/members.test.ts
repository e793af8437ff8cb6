import { describe, expect, it } from "vitest";
import {
  ClusterGroupPatchSchema,
  ClusterGroupPostSchema,
  ClusterGroupPutSchema,
  ClusterGroupSchema,
  ClusterGroupsPostSchema,
  ClusterMemberPatchSchema,
  ClusterMemberPostSchema,
  ClusterMemberPutSchema,
  ClusterMemberSchema,
  ClusterMemberStatePostSchema,
  ClusterMembersPostSchema,
} from "./members.js";
import { clusterMember } from "./testing/examples.fixture.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

describe("ClusterMember", () => {
  it("accepts a member with LXD's fields and Berth's traits", () => {
    expect(parseBody(ClusterMemberSchema, clusterMember)).toEqual({ ok: true, value: clusterMember });
  });

  it("accepts every LXD/Incus status", () => {
    for (const status of ["Online", "Offline", "Evacuated", "Evacuating", "Restoring", "Blocked"]) {
      expect(parseBody(ClusterMemberSchema, { ...clusterMember, status }).ok).toBe(true);
    }
  });

  it("rejects an unknown status, role, config key or scheduler value", () => {
    expect(errorOf(parseBody(ClusterMemberSchema, { ...clusterMember, status: "online" }))).toBe(
      'Invalid field "status": expected one of "Online", "Offline", "Evacuated", "Evacuating", "Restoring", "Blocked"',
    );
    expect(errorOf(parseBody(ClusterMemberSchema, { ...clusterMember, roles: ["leader"] }))).toBe(
      'Invalid field "roles[0]": expected one of "database", "database-leader", "database-standby", "database-client", "event-hub", "ovn-chassis"',
    );
    expect(
      errorOf(
        parseBody(ClusterMemberSchema, { ...clusterMember, config: { "core.https_address": ":8443" } }),
      ),
    ).toBe(
      'Invalid field "config.core.https_address": unknown member config key (allowed: scheduler.instance, topology.*, user.*)',
    );
    expect(
      errorOf(
        parseBody(ClusterMemberSchema, { ...clusterMember, config: { "scheduler.instance": "never" } }),
      ),
    ).toBe('Invalid field "config.scheduler.instance": expected one of "all", "group", "manual"');
  });

  it("takes topology.<name> keys and refuses bad names, failure_domain and control characters", () => {
    const withConfig = (config: Record<string, string>) =>
      parseBody(ClusterMemberSchema, { ...clusterMember, config });
    expect(withConfig({ "topology.rack": "C1", "topology.room": "3", "topology.power-feed_2": "" }).ok).toBe(
      true,
    );
    expect(errorOf(withConfig({ "topology.Rack": "C1" }))).toBe(
      'Invalid field "config.topology.Rack": invalid topology name "Rack" (allowed: lowercase letters, digits, "-" and "_", starting with a letter or digit, at most 63 characters)',
    );
    expect(errorOf(withConfig({ "topology.failure_domain": "x" }))).toBe(
      'Invalid field "config.topology.failure_domain": the topology key "failure_domain" is the member\'s failure_domain field: set that instead',
    );
    expect(errorOf(withConfig({ "topology.rack": "C\n1" }))).toBe(
      'Invalid field "config.topology.rack": topology value with a control character',
    );
  });

  it("rejects lower-case traits and a missing server_name", () => {
    expect(errorOf(parseBody(ClusterMemberSchema, { ...clusterMember, traits: ["avx2"] }))).toBe(
      'Invalid field "traits[0]": must be 1-255 characters of upper-case letters, digits and underscores (a standard trait or CUSTOM_*)',
    );
    const { server_name: _gone, ...rest } = clusterMember;
    expect(errorOf(parseBody(ClusterMemberSchema, rest))).toBe('Missing field "server_name"');
  });
});

describe("member writes", () => {
  const put = {
    roles: [],
    failure_domain: "rack1",
    description: "edge",
    config: { "scheduler.instance": "group" },
    groups: ["default", "gpu"],
    traits: ["CUSTOM_GPU"],
  };

  it("accepts PUT, PATCH, registration and rename bodies", () => {
    expect(parseBody(ClusterMemberPutSchema, put).ok).toBe(true);
    expect(parseBody(ClusterMemberPatchSchema, { traits: [] }).ok).toBe(true);
    expect(parseBody(ClusterMembersPostSchema, { server_name: "node4" }).ok).toBe(true);
    expect(
      parseBody(ClusterMembersPostSchema, {
        server_name: "node4",
        url: "https://10.0.0.4:8443",
        architecture: "aarch64",
        ...put,
      }).ok,
    ).toBe(true);
    expect(parseBody(ClusterMemberPostSchema, { server_name: "node5" }).ok).toBe(true);
  });

  it("refuses computed fields in a PUT and bad member names", () => {
    expect(errorOf(parseBody(ClusterMemberPutSchema, { ...put, status: "Online" }))).toBe(
      'Unknown field "status"',
    );
    expect(errorOf(parseBody(ClusterMembersPostSchema, { server_name: "-node" }))).toBe(
      'Invalid field "server_name": must be 1-63 characters of letters, digits, dots, underscores and hyphens, starting and ending with a letter or digit',
    );
    expect(errorOf(parseBody(ClusterMembersPostSchema, { server_name: "n1", url: "not a url" }))).toBe(
      'Invalid field "url": must be a valid url',
    );
  });

  it("accepts evacuate and restore, nothing else", () => {
    expect(parseBody(ClusterMemberStatePostSchema, { action: "evacuate" }).ok).toBe(true);
    expect(parseBody(ClusterMemberStatePostSchema, { action: "restore" }).ok).toBe(true);
    expect(errorOf(parseBody(ClusterMemberStatePostSchema, { action: "drain" }))).toBe(
      'Invalid field "action": expected one of "evacuate", "restore"',
    );
    expect(errorOf(parseBody(ClusterMemberStatePostSchema, {}))).toBe('Missing field "action"');
  });
});

describe("cluster groups", () => {
  it("accepts groups and their edits", () => {
    expect(parseBody(ClusterGroupSchema, { name: "gpu", description: "", members: ["node1"] }).ok).toBe(true);
    expect(parseBody(ClusterGroupsPostSchema, { name: "foobar1" }).ok).toBe(true);
    expect(parseBody(ClusterGroupPutSchema, { description: "x", members: [] }).ok).toBe(true);
    expect(parseBody(ClusterGroupPatchSchema, { members: ["node2"] }).ok).toBe(true);
    expect(parseBody(ClusterGroupPostSchema, { name: "renamed" }).ok).toBe(true);
  });

  it("rejects a group name with '@' (the target prefix) and unknown fields", () => {
    expect(errorOf(parseBody(ClusterGroupsPostSchema, { name: "@gpu" }))).toBe(
      'Invalid field "name": must be 1-63 characters of letters, digits and hyphens, start with a letter and not end with a hyphen',
    );
    expect(errorOf(parseBody(ClusterGroupPutSchema, { description: "", members: [], size: 3 }))).toBe(
      'Unknown field "size"',
    );
  });
});
