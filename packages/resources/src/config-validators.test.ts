import { describe, expect, it } from "vitest";
import { isCpuAllowance, isSize, isUint32 } from "./config-validators.js";

describe("config value checks (LXD's validate package)", () => {
  it("uint32: digits within 32 bits, else Go's ParseUint texts", () => {
    expect(isUint32("4294967295")).toBeUndefined();
    expect(isUint32("4294967296")).toBe(
      'Invalid value for uint32 "4294967296": strconv.ParseUint: parsing "4294967296": value out of range',
    );
    expect(isUint32("-1")).toBe(
      'Invalid value for uint32 "-1": strconv.ParseUint: parsing "-1": invalid syntax',
    );
  });

  it("sizes: a byte size passes, anything else answers the size parser's text", () => {
    expect(isSize("20GiB")).toBeUndefined();
    expect(isSize("twenty")).toMatch(/twenty/);
  });

  it("CPU allowance: a percentage or quota/period in ms, each an integer", () => {
    expect(isCpuAllowance("50%")).toBeUndefined();
    expect(isCpuAllowance("25ms/100ms")).toBeUndefined();
    expect(isCpuAllowance("lots")).toBe("Invalid allowance: lots");
    expect(isCpuAllowance("25ms/soon")).toBe('strconv.Atoi: parsing "soon": invalid syntax');
    expect(isCpuAllowance("x%")).toBe('strconv.Atoi: parsing "x": invalid syntax');
  });
});
