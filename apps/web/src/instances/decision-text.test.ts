import type { InstancePlacementRecord } from "@berth/api-types";
import { describe, expect, it } from "vitest";
import { candidatesText, deciderText, leadingText, reasonText } from "./decision-text.js";

const record = (fields: Partial<InstancePlacementRecord>): InstancePlacementRecord => ({
  instance: "web1",
  project: "default",
  member: "node2",
  decided_at: "2026-01-01T00:00:00Z",
  reason: "new",
  decided_by: "default",
  target: null,
  placement_group: null,
  members: 4,
  candidates: { count: 3, leading: ["node2", "node1"] },
  rejections: [],
  log: [],
  log_dropped: 0,
  scriptlet: null,
  ...fields,
});

describe("the 'why here?' sentences", () => {
  it("say who decided, with the group and target that shaped it", () => {
    expect(deciderText(record({}))).toBe(
      "The default policy chose node2: the first candidate, fewest instances first, ties in join order.",
    );
    expect(
      deciderText(
        record({ placement_group: { name: "web", policy: "spread", rigor: "strict" }, target: "@rack-a" }),
      ),
    ).toBe(
      'The default policy chose node2: the first candidate, fewest instances first, ties in join order, ordered by placement group "web" (spread, strict), within @rack-a.',
    );
    expect(deciderText(record({ decided_by: "scriptlet" }))).toBe(
      "The placement scriptlet chose node2 with set_target.",
    );
    expect(deciderText(record({ decided_by: "target", target: "node2" }))).toMatch(
      /^The caller asked for node2/,
    );
    expect(reasonText(record({ reason: "evacuation" }))).toBe("moved off an evacuated member");
  });

  it("count candidates, and list the first ones the decision saw", () => {
    expect(candidatesText(record({}))).toBe("3 of 4 members were candidates.");
    expect(candidatesText(record({ candidates: { count: 1, leading: ["node2"] } }))).toBe(
      "1 of 4 members was a candidate.",
    );
    expect(candidatesText(record({ candidates: null }))).toBe(
      "No candidate search ran (4 members in the cluster).",
    );
    expect(leadingText(record({}))).toBe("In the order the decision saw them: node2, node1, …");
    expect(leadingText(record({ candidates: { count: 2, leading: ["node2", "node1"] } }))).toBe(
      "In the order the decision saw them: node2, node1.",
    );
    expect(leadingText(record({ candidates: null }))).toBe("");
  });
});
