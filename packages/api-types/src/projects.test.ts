import { describe, expect, it } from "vitest";
import {
  ProfilePatchSchema,
  ProfilePostSchema,
  ProfilePutSchema,
  ProfileSchema,
  ProfilesPostSchema,
} from "./profiles.js";
import {
  ProjectPatchSchema,
  ProjectPostSchema,
  ProjectPutSchema,
  ProjectSchema,
  ProjectsPostSchema,
} from "./projects.js";
import { errorOf } from "./testing/rejection.fixture.js";
import { parseBody } from "./validation.js";

describe("projects", () => {
  const config = {
    "limits.instances": "10",
    "limits.containers": "5",
    "limits.virtual-machines": "5",
    "limits.cpu": "16",
    "limits.memory": "64GiB",
    "limits.disk": "500GB",
    restricted: "true",
    "restricted.cluster.groups": "foobar1, foobar2",
    "features.profiles": "true",
    "user.owner": "team-a",
  };

  it("accepts a project with every enforced limit (what get_project() returns)", () => {
    const project = {
      name: "team-a",
      description: "",
      config,
      used_by: ["/1.0/instances/c1?project=team-a"],
    };
    expect(parseBody(ProjectSchema, project)).toEqual({ ok: true, value: project });
  });

  it("accepts create, PUT, PATCH and rename bodies", () => {
    expect(parseBody(ProjectsPostSchema, { name: "team-b" }).ok).toBe(true);
    expect(parseBody(ProjectPutSchema, { description: "x", config: {} }).ok).toBe(true);
    expect(parseBody(ProjectPatchSchema, { config: { "limits.instances": "", restricted: "" } }).ok).toBe(
      true,
    );
    expect(parseBody(ProjectPatchSchema, { config: { "limits.instances": "3" } }).ok).toBe(true);
    expect(parseBody(ProjectPostSchema, { name: "team-c" }).ok).toBe(true);
  });

  it("rejects project names LXD forbids", () => {
    const rule =
      'Invalid field "name": must be 1-63 characters without "/", spaces, underscores, quotes, control or bidi formatting characters, "?", "#", "%" or "\\", and not "*", "." or ".."';
    for (const name of [
      "a/b",
      "a b",
      "a_b",
      "it's",
      "*",
      ".",
      "..",
      "",
      "a\u0000b",
      "a\u0007",
      "a\u202eb",
      "a?b",
      "a#b",
      "a%b",
      "a\\b",
      " a",
      "a ",
    ]) {
      expect(errorOf(parseBody(ProjectsPostSchema, { name }))).toBe(rule);
    }
    expect(parseBody(ProjectsPostSchema, { name: "Team.A-1" }).ok).toBe(true);
  });

  it("checks enforced limits and refuses keys outside LXD's namespaces", () => {
    expect(errorOf(parseBody(ProjectsPostSchema, { name: "p", config: { "limits.cpu": "four" } }))).toBe(
      'Invalid field "config.limits.cpu": must be a non-negative integer',
    );
    expect(errorOf(parseBody(ProjectsPostSchema, { name: "p", config: { "limits.memory": "50%" } }))).toBe(
      'Invalid field "config.limits.memory": must be a size such as "10GiB", "512MB" or a number of bytes',
    );
    expect(errorOf(parseBody(ProjectsPostSchema, { name: "p", config: { restricted: "yes" } }))).toBe(
      'Invalid field "config.restricted": must be "true" or "false"',
    );
    expect(
      errorOf(parseBody(ProjectsPostSchema, { name: "p", config: { "restricted.cluster.groups": "a,@b" } })),
    ).toBe(
      'Invalid field "config.restricted.cluster.groups": must be a comma-separated list of group names (bad: "@b")',
    );
    expect(errorOf(parseBody(ProjectsPostSchema, { name: "p", config: { colour: "red" } }))).toBe(
      'Invalid field "config.colour": unknown project config key (allowed prefixes: user., limits., restricted., features., images., backups.)',
    );
  });
});

describe("profiles", () => {
  const profile = {
    name: "foo",
    description: "copy of default with limits",
    config: { "limits.cpu": "1", "limits.memory": "512MiB" },
    devices: { root: { type: "disk", path: "/", pool: "data", size: "200MiB" } },
    project: "default",
    used_by: [],
  };

  it("accepts the LXD test suite's profile foo and its edits", () => {
    expect(parseBody(ProfileSchema, profile)).toEqual({ ok: true, value: profile });
    const { name, project: _p, used_by: _u, ...put } = profile;
    expect(parseBody(ProfilePutSchema, put).ok).toBe(true);
    expect(parseBody(ProfilesPostSchema, { name, config: put.config }).ok).toBe(true);
    expect(parseBody(ProfilePatchSchema, { devices: {} }).ok).toBe(true);
    expect(parseBody(ProfilePostSchema, { name: "bar" }).ok).toBe(true);
  });

  it("rejects bad names, non-string values and unknown fields", () => {
    expect(errorOf(parseBody(ProfilesPostSchema, { name: "a/b" }))).toBe(
      'Invalid field "name": must be 1-63 characters without "/", whitespace, control or bidi formatting characters, "?", "#", "%" or "\\", and not "." or ".."',
    );
    expect(errorOf(parseBody(ProfilePatchSchema, { devices: { root: { size: 1 } } }))).toBe(
      'Invalid field "devices.root.size": expected string, got number',
    );
    expect(
      errorOf(parseBody(ProfilePutSchema, { description: "", config: {}, devices: {}, used_by: [] })),
    ).toBe('Unknown field "used_by"');
  });
});
