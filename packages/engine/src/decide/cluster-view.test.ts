import { describe, expect, it } from "vitest";
import { needsInstanceList } from "./cluster-view.js";

describe("needsInstanceList", () => {
  it("is true wherever get_instances or get_project appears as an identifier (calls, aliases, arguments)", () => {
    expect(needsInstanceList("x = get_instances(location='a')")).toBe(true);
    expect(needsInstanceList("f = get_instances\nf()")).toBe(true);
    expect(needsInstanceList("g(get_project)")).toBe(true);
    expect(needsInstanceList("p = get_project ('default')")).toBe(true);
  });

  it("is false for other identifiers that merely contain those names", () => {
    expect(needsInstanceList("n = get_instances_count(pending=True)")).toBe(false);
    expect(needsInstanceList("my_get_instances = 1\nget_instancesX = 2")).toBe(false);
    expect(needsInstanceList("set_target(candidate_members[0].server_name)")).toBe(false);
  });
});
