import { describe, expect, it } from "vitest";
import { traitsFilter } from "./traits.js";

describe("traits filter", () => {
  const withTraits = (...traits: string[]) => ({ name: "n1", traits });
  const asking = (requiredTraits: string[], forbiddenTraits: string[] = []) => ({
    requiredTraits,
    forbiddenTraits,
  });

  it("admits members with every required trait and no forbidden one", () => {
    expect(traitsFilter.reject(withTraits("A", "B"), asking(["B", "A"], ["C"]))).toBeUndefined();
  });

  it("names the first missing required trait", () => {
    expect(traitsFilter.reject(withTraits("A"), asking(["A", "HW_GPU", "SSD"]))).toMatchObject({
      code: "lack:HW_GPU",
      one: "lacks HW_GPU",
      many: "lack HW_GPU",
      capacity: false,
    });
  });

  it("names a forbidden trait the member has, after the required ones", () => {
    expect(traitsFilter.reject(withTraits("A", "C"), asking(["A"], ["C"]))).toMatchObject({
      code: "forbidden:C",
      one: "has forbidden trait C",
    });
    expect(traitsFilter.reject(withTraits("C"), asking(["A"], ["C"]))?.code).toBe("lack:A");
  });

  it("also checks a member named directly (Berth never places against required traits)", () => {
    expect(traitsFilter).toMatchObject({ kind: "static" });
  });
});
