import { describe, expect, it } from "vitest";
import { inventory, member } from "../testing/members.fixture.js";
import { choices, matches, NO_FILTER, rowsOf, sectionsOf, UNASSIGNED } from "./grouping.js";

const members = [
  member("node10", { failure_domain: "rack-b", groups: ["gpu"], traits: ["CUSTOM_SSD"] }),
  member("node2", { failure_domain: "rack-a", groups: ["gpu", "edge"], inventories: { VCPU: inventory(8) } }),
  member("node1", { failure_domain: "", status: "Offline" }),
];

describe("which members the cluster view shows, under which headings", () => {
  it("filters by name, group, trait, class and status together", () => {
    const names = (filter: Partial<typeof NO_FILTER>) =>
      members.filter((m) => matches(m, { ...NO_FILTER, ...filter })).map((m) => m.server_name);
    expect(names({})).toEqual(["node10", "node2", "node1"]);
    expect(names({ search: "NODE1" })).toEqual(["node10", "node1"]);
    expect(names({ group: "gpu" })).toEqual(["node10", "node2"]);
    expect(names({ trait: "CUSTOM_SSD" })).toEqual(["node10"]);
    expect(names({ resourceClass: "VCPU" })).toEqual(["node2"]);
    expect(names({ status: "Offline" })).toEqual(["node1"]);
    expect(names({ group: "gpu", search: "2" })).toEqual(["node2"]);
  });

  it("groups by failure domain in natural order, the unassigned last", () => {
    const sections = sectionsOf(members, "failure-domain");
    expect(sections.map((s) => [s.title, s.members.map((m) => m.server_name)])).toEqual([
      ["rack-a", ["node2"]],
      ["rack-b", ["node10"]],
      [UNASSIGNED, ["node1"]],
    ]);
  });

  it("lists a member under each of its cluster groups; none: one untitled section", () => {
    expect(sectionsOf(members, "cluster-group").map((s) => [s.title, s.members.length])).toEqual([
      ["edge", 1],
      ["gpu", 2],
      [UNASSIGNED, 1],
    ]);
    expect(sectionsOf(members, "none")).toEqual([{ title: "", members }]);
  });

  it("flattens sections into list rows, headings only where there is a title", () => {
    const rows = rowsOf(sectionsOf(members, "failure-domain"));
    expect(
      rows.map((r) => (r.kind === "heading" ? `# ${r.title} (${r.count})` : r.member.server_name)),
    ).toEqual(["# rack-a (1)", "node2", "# rack-b (1)", "node10", `# ${UNASSIGNED} (1)`, "node1"]);
    expect(rowsOf(sectionsOf(members, "none")).every((r) => r.kind === "member")).toBe(true);
  });

  it("offers each filter's values once, sorted naturally", () => {
    expect(choices(members, (m) => m.groups)).toEqual(["edge", "gpu"]);
    expect(choices(members, (m) => m.traits ?? [])).toEqual(["CUSTOM_SSD"]);
  });
});
