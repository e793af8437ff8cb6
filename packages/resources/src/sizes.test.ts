import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bytesToGibibytesCeil,
  bytesToMebibytesCeil,
  formatByteSize,
  formatByteSizeExact,
  formatByteSizeIEC,
  GiB,
  KiB,
  MiB,
  parseByteSize,
  SIZE_MULTIPLIERS,
} from "./sizes.js";

function bytesOf(input: string): number {
  const result = parseByteSize(input);
  if (!result.ok) throw new Error(`expected ${input} to parse: ${result.error.message}`);
  return result.value;
}

function errorOf(input: string) {
  const result = parseByteSize(input);
  if (result.ok) throw new Error(`expected ${input} to fail, got ${result.value}`);
  return result.error;
}

describe("parseByteSize: every suffix", () => {
  it.each([
    ["", 0],
    ["0", 0],
    ["7", 7],
    ["7B", 7],
    ["7 bytes", 7],
    ["2kB", 2_000],
    ["2MB", 2_000_000],
    ["2GB", 2_000_000_000],
    ["2TB", 2_000_000_000_000],
    ["2PB", 2_000_000_000_000_000],
    ["9EB", undefined],
    ["2KiB", 2 * 1024],
    ["2MiB", 2 * 1024 ** 2],
    ["2GiB", 2 * 1024 ** 3],
    ["2TiB", 2 * 1024 ** 4],
    ["2PiB", 2 * 1024 ** 5],
    ["512MiB", 536870912],
    ["200MiB", 209715200],
    ["1GiB", GiB],
    ["10GiB", 10 * GiB],
    ["007MiB", 7 * MiB],
  ])("%j", (input, expected) => {
    if (expected === undefined) {
      expect(errorOf(input).kind).toBe("size-too-large");
    } else {
      expect(bytesOf(input)).toBe(expected);
    }
  });

  it("knows exactly LXD's fifteen suffixes", () => {
    expect(Object.keys(SIZE_MULTIPLIERS).sort()).toEqual(
      [
        "",
        " bytes",
        "B",
        "EB",
        "EiB",
        "GB",
        "GiB",
        "KiB",
        "MB",
        "MiB",
        "PB",
        "PiB",
        "TB",
        "TiB",
        "kB",
      ].sort(),
    );
  });

  it("reads EB and EiB exactly but refuses results beyond 2^53 with its own error", () => {
    const eb = errorOf("1EB");
    expect(eb.kind).toBe("size-too-large");
    expect(eb.message).toBe(
      "Size 1EB is 1000000000000000000 bytes, more than the largest supported size of 9007199254740991 bytes",
    );
    expect(errorOf("1EiB").kind).toBe("size-too-large");
    expect(bytesOf("7PiB")).toBe(7 * 1024 ** 5);
    expect(errorOf("8PiB").kind).toBe("size-too-large");
    expect(bytesOf("9007199254740991")).toBe(Number.MAX_SAFE_INTEGER);
    expect(errorOf("9007199254740992").kind).toBe("size-too-large");
  });

  it("zero with any suffix is zero", () => {
    expect(bytesOf("0EiB")).toBe(0);
    expect(bytesOf("0kB")).toBe(0);
    expect(bytesOf("0EB")).toBe(0);
    expect(bytesOf("0 bytes")).toBe(0);
  });
});

describe("parseByteSize: LXD's error texts", () => {
  it.each([
    ["50%", "percentage-size", "Invalid value: 50%"],
    ["GiB", "invalid-size", "Invalid value: GiB"],
    ["-1GiB", "invalid-size", "Invalid value: -1GiB"],
    ["1.5GiB", "invalid-size", "Invalid value: 1.5GiB"],
    ["1gib", "invalid-size", "Invalid value: 1gib"],
    ["1K", "invalid-size", "Invalid value: 1K"],
    ["1KB", "invalid-size", "Invalid value: 1KB"],
    ["1 GiB", "invalid-size", "Invalid value: 1 GiB"],
    ["1GiB ", "invalid-size", "Invalid value: 1GiB "],
    [" 1GiB", "invalid-size", "Invalid value:  1GiB"],
    ["1bytes", "invalid-size", "Invalid value: 1bytes"],
    ["abc", "invalid-size", "Invalid value: abc"],
    ["9223372036854775808", "size-integer-out-of-range", "Invalid integer: 9223372036854775808"],
    ["99999999999999999999GiB", "size-integer-out-of-range", "Invalid integer: 99999999999999999999GiB"],
    ["9EiB", "size-overflow", "Overflow multiplying 9 with 1152921504606846976"],
    ["10EB", "size-overflow", "Overflow multiplying 10 with 1000000000000000000"],
  ])("%j -> %s", (input, kind, message) => {
    const error = errorOf(input);
    expect(error.kind).toBe(kind);
    expect(error.message).toBe(message);
  });

  it("explains why a percentage is not a size", () => {
    const error = errorOf("50%");
    expect(error.kind === "percentage-size" && error.detail).toContain("A percentage is not a size");
  });

  it("the largest int64 size LXD accepts is too large here, with our own error", () => {
    expect(errorOf("9223372036854775807").kind).toBe("size-too-large");
    expect(errorOf("8EiB").kind).toBe("size-overflow");
  });
});

describe("formatting", () => {
  it.each([
    [0, "0B"],
    [999, "999B"],
    [1000, "1.00kB"],
    [1_500_000, "1.50MB"],
    [2_000_000_000, "2.00GB"],
    [3 * 1000 ** 4, "3.00TB"],
    [4 * 1000 ** 5, "4.00PB"],
    [Number.MAX_SAFE_INTEGER, "9.01PB"],
  ])("formatByteSize(%i) = %s", (bytes, text) => {
    expect(formatByteSize(bytes)).toBe(text);
  });

  it.each([
    [1023, "1023B"],
    [1024, "1.00KiB"],
    [1610612736, "1.50GiB"],
    [5 * 1024 ** 4, "5.00TiB"],
    [7 * 1024 ** 5, "7.00PiB"],
  ])("formatByteSizeIEC(%i) = %s", (bytes, text) => {
    expect(formatByteSizeIEC(bytes)).toBe(text);
  });

  it("takes a precision", () => {
    expect(formatByteSize(1_234_567, 0)).toBe("1MB");
    expect(formatByteSizeIEC(1536, 1)).toBe("1.5KiB");
  });

  it("continues into EB when the value needs it", () => {
    expect(formatByteSize(2e18)).toBe("2.00EB");
    expect(formatByteSizeIEC(2 * 1024 ** 6)).toBe("2.00EiB");
  });

  it.each([
    [0, "0B"],
    [1, "1B"],
    [1023, "1023B"],
    [1000, "1kB"],
    [KiB, "1KiB"],
    [8 * GiB, "8GiB"],
    [2_000_000_000, "2GB"],
    [512 * MiB, "512MiB"],
    [1536 * MiB, "1536MiB"],
    [1024 ** 5, "1PiB"],
    [3 * 1000 ** 5, "3PB"],
  ])("formatByteSizeExact(%i) = %s", (bytes, text) => {
    expect(formatByteSizeExact(bytes)).toBe(text);
  });

  it("formatByteSizeExact refuses what is not a size", () => {
    expect(() => formatByteSizeExact(-1)).toThrow(RangeError);
    expect(() => formatByteSizeExact(1.5)).toThrow(RangeError);
    expect(() => formatByteSizeExact(2 ** 60)).toThrow(RangeError);
  });

  it("parse(formatExact(n)) === n for every safe byte count", () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (bytes) => {
        expect(bytesOf(formatByteSizeExact(bytes))).toBe(bytes);
      }),
      { numRuns: 500 },
    );
  });

  it("round-trips sizes built from every unit", () => {
    const units = Object.keys(SIZE_MULTIPLIERS);
    fc.assert(
      fc.property(fc.nat({ max: 4096 }), fc.constantFrom(...units), (count, unit) => {
        const bytes = count * Number(SIZE_MULTIPLIERS[unit]);
        fc.pre(Number.isSafeInteger(bytes));
        const text = formatByteSizeExact(bytes);
        expect(bytesOf(text)).toBe(bytes);
        expect(bytesOf(`${count}${unit}`)).toBe(bytes);
      }),
      { numRuns: 500 },
    );
  });

  it("the human formats read back within their rounding", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: Number.MAX_SAFE_INTEGER }), (bytes) => {
        const text = formatByteSize(bytes, 2);
        const match = /^([0-9.]+)([kMGTPE]B)$/.exec(text);
        expect(match).not.toBeNull();
        const [, number, unit] = match as RegExpExecArray;
        const back = Number(number) * Number(SIZE_MULTIPLIERS[unit as string]);
        expect(Math.abs(back - bytes)).toBeLessThanOrEqual(
          0.005 * Number(SIZE_MULTIPLIERS[unit as string]) + 1,
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe("unit conversions", () => {
  it("round MEMORY_MB and DISK_GB up", () => {
    expect(bytesToMebibytesCeil(0)).toBe(0);
    expect(bytesToMebibytesCeil(1)).toBe(1);
    expect(bytesToMebibytesCeil(MiB)).toBe(1);
    expect(bytesToMebibytesCeil(MiB + 1)).toBe(2);
    expect(bytesToMebibytesCeil(1_000_000_000)).toBe(954);
    expect(bytesToGibibytesCeil(0)).toBe(0);
    expect(bytesToGibibytesCeil(10 * GiB)).toBe(10);
    expect(bytesToGibibytesCeil(10 * GiB + 1)).toBe(11);
    expect(bytesToGibibytesCeil(209715200)).toBe(1);
  });
});
