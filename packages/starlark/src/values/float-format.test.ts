import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatFloatE, formatFloatF, formatFloatG } from "./float-format.js";

describe("formatFloatG (str/repr/%g of float, as go.starlark.net)", () => {
  it.each([
    [0, "0.0"],
    [-0, "-0.0"],
    [1, "1.0"],
    [123, "123.0"],
    [1.11, "1.11"],
    [1e5, "100000.0"],
    [1e6, "1e+06"],
    [1234567, "1.234567e+06"],
    [1e100, "1e+100"],
    [1.23e45, "1.23e+45"],
    [-1.23e-45, "-1.23e-45"],
    [1e-4, "0.0001"],
    [1e-5, "1e-05"],
    [100 / 7, "14.285714285714286"],
    [5.60012e7, "5.60012e+07"],
    [Number.NaN, "nan"],
    [Number.POSITIVE_INFINITY, "+inf"],
    [Number.NEGATIVE_INFINITY, "-inf"],
    [1.23e-45 - 1.23 / 1e45, "-1.5557538194652854e-61"],
  ])("%d -> %s", (f, want) => {
    expect(formatFloatG(f)).toBe(want);
  });

  it("round-trips every finite double through its shortest form", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (f) => {
        const s = formatFloatG(f);
        expect(Object.is(Number(s), f) || (f === 0 && Number(s) === 0)).toBe(true);
        expect(/[.e]/.test(s)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("formatFloatE / formatFloatF (%e, %f)", () => {
  it.each([
    [0, "0.000000e+00", "0.000000"],
    [123, "1.230000e+02", "123.000000"],
    [1.23e45, "1.230000e+45", "1229999999999999973814869011019624571608236032.000000"],
    [-1.23e-45, "-1.230000e-45", "-0.000000"],
    [-0, "-0.000000e+00", "-0.000000"],
    [Number.NaN, "nan", "nan"],
    [Number.POSITIVE_INFINITY, "+inf", "+inf"],
  ])("%d", (f, e, fixed) => {
    expect(formatFloatE(f)).toBe(e);
    expect(formatFloatF(f)).toBe(fixed);
  });
});

describe("exact rounding (half to even, like Go's strconv)", () => {
  it.each([
    [2 ** -7, "7.812500e-03", "0.007812"],
    [1234568.5, "1.234568e+06", "1234568.500000"],
    [0.5, "5.000000e-01", "0.500000"],
    [Number("9.9999999999999995e22"), "1.000000e+23", "99999999999999991611392.000000"],
    [5e-324, "4.940656e-324", "0.000000"],
  ])("%d", (f, e, fixed) => {
    expect(formatFloatE(f)).toBe(e);
    expect(formatFloatF(f)).toBe(fixed);
  });
  it("is never farther from the value than JS's half-up rounding, and equal away from ties (property)", () => {
    // JS's toFixed/toExponential round exact ties up; Go rounds them to even. Both are
    // otherwise exact, so ours must match them except where both are equally close.
    const check = (got: string, want: string, f: number) => {
      if (got === want) return;
      const dg = Math.abs(Number(got) - f);
      const dw = Math.abs(Number(want) - f);
      expect(Math.abs(dg - dw)).toBeLessThanOrEqual(Math.abs(f) * 1e-15 + 1e-18);
    };
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), (f) => {
        check(formatFloatF(f), f.toFixed(6), f);
        const js = f.toExponential(6).replace(/e([+-])(\d)$/, (_m, sign, d) => `e${sign}0${d}`);
        check(formatFloatE(f), js, f);
      }),
      { numRuns: 300 },
    );
  });
});
