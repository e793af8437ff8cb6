import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatFloatG } from "../values/float-format.js";
import { parseFloatLiteral, parseIntLiteral } from "./parse-number.js";

describe("parseFloatLiteral", () => {
  it("reads back everything str(float) prints (property)", () => {
    fc.assert(
      fc.property(fc.double(), (f) => {
        const r = parseFloatLiteral(formatFloatG(f));
        expect(r.ok).toBe(true);
        if (r.ok) expect(Object.is(r.value, f) || (Number.isNaN(r.value) && Number.isNaN(f))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
  it.each(["1.1abc", "1e100.0", "1.2.3", "one", "", " 1", "1__0", "_1", "1_", "0x10", ".", "e5", "0x1.8"])(
    "rejects %j, as Go's strconv.ParseFloat",
    (s) => {
      expect(parseFloatLiteral(s)).toEqual({ ok: false, error: "invalid" });
    },
  );
  it.each<[string, number]>([
    ["1_0", 10],
    ["1_000.5", 1000.5],
    ["0x1p3", 8],
    ["0x1.8p1", 3],
    ["0X_1P-1", 0.5],
    [".5e1", 5],
    ["+.5", 0.5],
    ["5.", 5],
    ["1e-400", 0],
    ["-Infinity", Number.NEGATIVE_INFINITY],
  ])("accepts %j as Go's strconv.ParseFloat does", (s, want) => {
    expect(parseFloatLiteral(s)).toEqual({ ok: true, value: want });
  });
  it("reports overflow separately", () => {
    expect(parseFloatLiteral("1e1000")).toEqual({ ok: false, error: "too large" });
  });
});

describe("parseIntLiteral", () => {
  it("round-trips every base (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(2n ** 100n), max: 2n ** 100n }),
        fc.integer({ min: 2, max: 36 }),
        (n, base) => {
          const got = parseIntLiteral(n.toString(base), base);
          expect(BigInt(got as number | bigint)).toBe(n);
        },
      ),
      { numRuns: 300 },
    );
  });
  it.each<[string, number, number | bigint | undefined]>([
    ["0x12", 0, 18],
    ["0X12", 16, 18],
    ["0o17", 0, 15],
    ["0b101", 2, 5],
    ["0755", 0, undefined],
    ["000", 0, 0],
    ["0x", 16, undefined],
    ["--4", 10, undefined],
    ["-0", 10, 0],
  ])("%j base %d", (s, base, want) => {
    expect(parseIntLiteral(s, base)).toBe(want);
  });
});
