import { describe, expect, it } from "vitest";
import { member } from "../testing/members.fixture.js";
import { sectionsOf, UNASSIGNED } from "./grouping.js";
import { topologyLabel, topologyNamesOf } from "./topology.js";

const members = [
  member("a1", { config: { "topology.rack": "A1", "topology.room": "3", "user.owner": "ops" } }),
  member("b1", { config: { "topology.rack": "B1" } }),
  member("x", { config: { "scheduler.instance": "manual" } }),
];

describe("member topology keys in the cluster view", () => {
  it("labels a member with its topology keys only, names sorted", () => {
    expect(members.map(topologyLabel)).toEqual(["rack=A1 room=3", "rack=B1", ""]);
  });

  it("offers every topology name to group by, and groups by one (members without it last)", () => {
    expect(topologyNamesOf(members)).toEqual(["rack", "room"]);
    expect(
      sectionsOf(members, "topology.rack").map((s) => [s.title, s.members.map((m) => m.server_name)]),
    ).toEqual([
      ["A1", ["a1"]],
      ["B1", ["b1"]],
      [UNASSIGNED, ["x"]],
    ]);
  });
});
