import { describe, expect, it } from "vitest";
import { isStandardTrait, STANDARD_TRAITS } from "./standard-traits.js";

describe("standard traits (os-traits 2.9.0)", () => {
  it("holds the 345 standard names, sorted, and knows them", () => {
    expect(STANDARD_TRAITS).toHaveLength(345);
    expect([...STANDARD_TRAITS].sort()).toEqual(STANDARD_TRAITS);
    expect(isStandardTrait("HW_CPU_X86_AVX2")).toBe(true);
    expect(isStandardTrait("MISC_SHARES_VIA_AGGREGATE")).toBe(true);
    expect(isStandardTrait("CUSTOM_FOO")).toBe(false);
  });
});
