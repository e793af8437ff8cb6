import { describe, expect, it } from "vitest";
import { inventory, member } from "../testing/members.fixture.js";
import { sectionsOf } from "./grouping.js";
import {
  BANDS,
  bandOf,
  colourOf,
  describeHeatMap,
  EVACUATED_COLOUR,
  layoutCells,
  memberAt,
  NO_INVENTORY_COLOUR,
  OFFLINE_COLOUR,
} from "./heatmap.js";

const at = (used: number) => member(`m${used}`, { inventories: { VCPU: inventory(100, used) } });

describe("the heat map", () => {
  it("bands fill from light to dark; status wins over fill", () => {
    expect([0, 0.25, 0.5, 0.8, 0.95, 1.5].map(bandOf)).toEqual([0, 1, 2, 3, 4, 4]);
    expect(colourOf(at(10), "VCPU")).toBe(BANDS[0].colour);
    expect(colourOf(at(95), "VCPU")).toBe(BANDS[4].colour);
    expect(colourOf(member("x", { status: "Offline" }), "VCPU")).toBe(OFFLINE_COLOUR);
    expect(colourOf(member("x", { status: "Evacuated" }), "VCPU")).toBe(EVACUATED_COLOUR);
    expect(colourOf(member("x"), "VCPU")).toBe(NO_INVENTORY_COLOUR);
  });

  it("shrinks cells as the cluster grows, so 1,000 members fit a screen and 10,000 a few", () => {
    const many = (count: number) =>
      sectionsOf(
        Array.from({ length: count }, (_, i) => at(i % 100)),
        "none",
      );
    const thousand = layoutCells(many(1000), 1200);
    expect(thousand.cell).toBe(12);
    expect(thousand.height).toBeLessThan(900);
    const tenThousand = layoutCells(many(10_000), 1200);
    expect(tenThousand.cell).toBe(6);
    expect(tenThousand.height).toBeLessThan(3 * 900);
  });

  it("finds the member under a point, section by section, and none in the gaps", () => {
    const members = [
      member("a1", { failure_domain: "a" }),
      member("a2", { failure_domain: "a" }),
      member("b1", { failure_domain: "b" }),
    ];
    const sections = sectionsOf(members, "failure-domain");
    const layout = layoutCells(sections, 1000);
    const step = layout.cell + layout.gap;
    const centre = (section: number, index: number) =>
      memberAt(
        sections,
        layout,
        index * step + layout.cell / 2,
        layout.sections[section]!.top + layout.cell / 2,
      );
    expect(centre(0, 0)?.server_name).toBe("a1");
    expect(centre(0, 1)?.server_name).toBe("a2");
    expect(centre(1, 0)?.server_name).toBe("b1");
    expect(centre(1, 1)).toBeUndefined();
    // In the gap between two cells.
    expect(
      memberAt(sections, layout, layout.cell + layout.gap / 2, layout.sections[0]!.top + 1),
    ).toBeUndefined();
  });

  it("tells a screen reader what the picture shows", () => {
    const members = [at(10), at(10), at(60), member("o", { status: "Offline" }), member("n")];
    expect(describeHeatMap(members, "VCPU", "vCPU")).toBe(
      "vCPU fill of 5 members: 2 under 25%, 0 25–50%, 1 50–75%, 0 75–90%, 0 90% and over; 1 offline, 0 evacuated, 1 without vCPU.",
    );
  });
});
