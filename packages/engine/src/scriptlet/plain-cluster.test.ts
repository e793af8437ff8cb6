import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { createPlainClusterView } from "./plain-cluster.js";

const view = createPlainClusterView({
  members: [
    { server_name: "a", groups: ["default", "gpu"] },
    { server_name: "b", groups: ["default"] },
  ],
  groups: ["default", "gpu", "empty"],
  states: { a: { sysinfo: { free_ram: 1 } } },
  instances: [
    { name: "i1", project: "default", location: "a" },
    { name: "i2", project: "p", location: "b" },
  ],
  pending: [{ project: "default", location: "b" }],
  projects: [{ name: "default" }, { name: "p" }],
});

describe("createPlainClusterView", () => {
  it("answers member state and resources for known members only", () => {
    expect(view.memberState("a")).toEqual({ sysinfo: { free_ram: 1 } });
    expect(view.memberState("b")).toEqual({});
    expect(view.memberState("zz")).toBeUndefined();
    expect(view.memberResources("b")).toEqual({});
    expect(view.memberResources("zz")).toBeUndefined();
  });

  it("filters instances and counts pending creates on request", () => {
    expect(view.instances({ project: "p" }).map((i) => i.name)).toEqual(["i2"]);
    expect(view.instances({ location: "a" }).map((i) => i.name)).toEqual(["i1"]);
    expect(view.instancesCount({ location: "b", pending: false })).toBe(1);
    expect(view.instancesCount({ location: "b", pending: true })).toBe(2);
    expect(() => view.instancesCount({ project: "nope", pending: false })).toThrow(EngineError);
  });

  it("tells an empty group from an unknown one", () => {
    expect(view.clusterMembers("gpu")?.map((m) => m.server_name)).toEqual(["a"]);
    expect(view.clusterMembers("empty")).toEqual([]);
    expect(view.clusterMembers("nope")).toBeUndefined();
    expect(view.clusterMembers()?.length).toBe(2);
  });

  it("finds projects by name", () => {
    expect(view.project("p")).toEqual({ name: "p" });
    expect(view.project("nope")).toBeUndefined();
  });
});
