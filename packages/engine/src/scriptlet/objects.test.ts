import { describe, expect, it } from "vitest";
import { TEST_SCRIPTLET_LIMITS } from "../testing/scriptlet-limits.fixture.js";
import { createScriptletHost } from "./host.js";
import { createPlainClusterView } from "./plain-cluster.js";
import type { ClusterMemberView, InstancePlacementView, ScriptletCall, ScriptletResult } from "./port.js";

const members: ClusterMemberView[] = [
  { server_name: "node1", config: { "user.zone": "b", "scheduler.instance": "all" }, roles: ["database"] },
  { server_name: "node2" },
];

function run(body: string, request?: Partial<InstancePlacementView>): ScriptletResult {
  const call: ScriptletCall = {
    request: {
      name: "c1",
      reason: "new",
      project: "default",
      config: { "limits.memory": "512MiB", "limits.cpu": "1" },
      devices: { root: { path: "/", pool: "default", type: "disk", size: "200MiB" } },
      profiles: ["default"],
      source: { type: "image", alias: "ubuntu/24.04", "base-image": "abc" },
      ...request,
    },
    candidates: members,
    instanceResources: { cpu_cores: 1, memory_size: 0, root_disk_size: 0 },
    cluster: createPlainClusterView({ members }),
    limits: TEST_SCRIPTLET_LIMITS,
  };
  const indented = body
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
  return createScriptletHost().run(
    1,
    `def instance_placement(request, candidate_members):\n${indented}\n`,
    call,
  );
}

function logged(body: string, request?: Partial<InstancePlacementView>): string[] {
  const result = run(body, request);
  if (result.outcome.kind === "rejected") throw new Error(result.outcome.message);
  return result.logs.map((l) => l.message);
}

function failure(body: string): string {
  const result = run(body);
  if (result.outcome.kind !== "rejected") throw new Error("expected a failure");
  return result.outcome.message.replace("Failed instance placement scriptlet: Failed to run: ", "");
}

describe("host objects", () => {
  it("expose fields by attribute and by index", () => {
    expect(
      logged(
        'log_info(request.name, request["name"], request.config["limits.cpu"], request["config"]["limits.memory"], candidate_members[0]["server_name"])',
      ),
    ).toEqual(["c1c11512MiBnode1"]);
  });

  it("name their type after the Go struct", () => {
    expect(
      logged(
        "log_info(type(request), type(candidate_members[0]), type(request.source), type(candidate_members))",
      ),
    ).toEqual(["InstancePlacementClusterMemberInstanceSourcelist"]);
  });

  it("turn maps into dicts with sorted keys, arrays into lists, nested maps into dicts", () => {
    expect(
      logged(
        'log_info(candidate_members[0].config)\nlog_info(request.devices["root"]["size"], type(request.devices), request.profiles)',
      ),
    ).toEqual(['{"scheduler.instance": "all", "user.zone": "b"}', '200MiBdict["default"]']);
  });

  it("give absent values Go's zero values, never None", () => {
    expect(
      logged(
        "m = candidate_members[1]\nlog_info(m.url, m.roles, m.config, m.groups, request.architecture, request.source.fingerprint)",
      ),
    ).toEqual(["[]{}[]"]);
  });

  it("reach hyphenated fields by index or getattr", () => {
    expect(logged('log_info(request.source["base-image"], getattr(request.source, "base-image"))')).toEqual([
      "abcabc",
    ]);
  });

  it("refuse unknown fields with LXD's text", () => {
    expect(failure("request.nope")).toBe('Invalid field "nope"');
    expect(failure('request["nope"]')).toBe('Invalid field "nope"');
    expect(failure("request[0]")).toBe("Invalid field 0");
    expect(failure("candidate_members[0].server")).toBe('Invalid field "server"');
  });

  it("support getattr with a default, hasattr and dir", () => {
    expect(
      logged(
        'log_info(getattr(request, "nope", "dflt"), hasattr(request, "name"), hasattr(request, "nope"))\nlog_info(dir(candidate_members[0]))',
      ),
    ).toEqual([
      "dfltTrueFalse",
      '["architecture", "config", "database", "description", "failure_domain", "groups", "message", "roles", "server_name", "status", "url"]',
    ]);
  });

  it("are read-only", () => {
    expect(failure('request.name = "x"')).toBe("can't assign to .name field of InstancePlacement");
    expect(failure('request["name"] = "x"')).toBe("InstancePlacement value does not support item assignment");
  });

  it("hand out the scriptlet's own copies of containers", () => {
    const request: Partial<InstancePlacementView> = { config: { a: "1" } };
    expect(
      logged('c = request.config\nc["b"] = "2"\nlog_info(request.config, c == request.config)', request),
    ).toEqual(['{"a": "1", "b": "2"}True']);
    expect(request.config).toEqual({ a: "1" });
  });

  it("are truthy, equal only to themselves and unhashable", () => {
    expect(
      logged(
        "a = candidate_members[0]\nlog_info(bool(a), a == a, a == candidate_members[1], a != candidate_members[1])",
      ),
    ).toEqual(["TrueTrueFalseTrue"]);
    expect(failure("d = {request: 1}")).toContain("Unhashable type InstancePlacement");
  });

  it("keep integers and floats apart, and large numbers exact", () => {
    expect(
      logged("log_info(get_instance_resources().memory_size + 1, type(get_instance_resources().cpu_cores))"),
    ).toEqual(["1int"]);
  });

  it("repr as the dict LXD builds, in field order", () => {
    expect(logged("log_info(candidate_members[1])")).toEqual([
      '{"server_name": "node2", "url": "", "database": False, "status": "", "message": "", "architecture": "", "roles": [], "failure_domain": "", "description": "", "config": {}, "groups": []}',
    ]);
    expect(logged("log_info(str(candidate_members[1])[:26])")).toEqual(['{"server_name": "node2", "']);
  });
});
