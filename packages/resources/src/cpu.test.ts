import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countCpuset, parseCpuLimit } from "./cpu.js";

function cpusOf(input: string): number {
  const result = parseCpuLimit(input);
  if (!result.ok) throw new Error(`expected ${input} to parse: ${result.error.message}`);
  return result.value;
}

function messageOf(input: string): string {
  const result = parseCpuLimit(input);
  if (result.ok) throw new Error(`expected ${input} to fail, got ${result.value}`);
  return result.error.message;
}

describe("parseCpuLimit: counts", () => {
  it.each([
    ["0", 0],
    ["1", 1],
    ["4", 4],
    ["0004", 4],
    ["128", 128],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ])("%j is a count of %i", (input, expected) => {
    expect(cpusOf(input)).toBe(expected);
  });
});

describe("parseCpuLimit: cpusets", () => {
  it.each([
    ["0-3", 4],
    ["0-3,8", 5],
    ["0,2,4", 3],
    ["8-15,0-3", 12],
    ["0-0", 1],
    ["3-1", 0],
    ["0,0", 2],
    ["+2", 1],
    ["1,+3", 2],
    ["0-9223372036854775807", undefined],
  ])("%j counts %s CPUs", (input, expected) => {
    if (expected === undefined) {
      const result = parseCpuLimit(input);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.kind).toBe("cpu-count-too-large");
    } else {
      expect(cpusOf(input)).toBe(expected);
    }
  });

  it("counts a range arithmetically, like LXD's enumeration would", () => {
    fc.assert(
      fc.property(fc.nat({ max: 100_000 }), fc.nat({ max: 100_000 }), (low, span) => {
        expect(cpusOf(`${low}-${low + span}`)).toBe(span + 1);
      }),
      { numRuns: 200 },
    );
  });

  it("counts a list of ids and ranges as the sum of its parts", () => {
    const part = fc.oneof(
      fc.nat({ max: 512 }).map((id) => ({ text: String(id), count: 1 })),
      fc
        .tuple(fc.nat({ max: 512 }), fc.nat({ max: 64 }))
        .map(([low, span]) => ({ text: `${low}-${low + span}`, count: span + 1 })),
    );
    fc.assert(
      fc.property(fc.array(part, { minLength: 2, maxLength: 8 }), (parts) => {
        const text = parts.map((p) => p.text).join(",");
        expect(cpusOf(text)).toBe(parts.reduce((sum, p) => sum + p.count, 0));
      }),
      { numRuns: 200 },
    );
  });
});

describe("parseCpuLimit: LXD's error texts", () => {
  it.each([
    [
      "abc",
      'Invalid cpuset value "abc": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "abc": invalid syntax',
    ],
    ["0-", 'Invalid cpuset value "0-": Invalid CPU/NUMA set value: "0-"'],
    [
      "-1",
      'Invalid cpuset value "-1": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "": invalid syntax',
    ],
    [
      "a-3",
      'Invalid cpuset value "a-3": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "a": invalid syntax',
    ],
    [
      "1-b",
      'Invalid cpuset value "1-b": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "b": invalid syntax',
    ],
    [
      "1-2-3",
      'Invalid cpuset value "1-2-3": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "2-3": invalid syntax',
    ],
    [
      "0,",
      'Invalid cpuset value "0,": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "": invalid syntax',
    ],
    [
      "1.5",
      'Invalid cpuset value "1.5": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "1.5": invalid syntax',
    ],
    [
      " 2",
      'Invalid cpuset value " 2": Invalid CPU/NUMA set value: strconv.ParseInt: parsing " 2": invalid syntax',
    ],
    [
      "50%",
      'Invalid cpuset value "50%": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "50%": invalid syntax',
    ],
    [
      "99999999999999999999",
      'Invalid cpuset value "99999999999999999999": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "99999999999999999999": value out of range',
    ],
    [
      'x"y',
      'Invalid cpuset value "x\\"y": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "x\\"y": invalid syntax',
    ],
    [
      "a\tb\n\\",
      'Invalid cpuset value "a\\tb\\n\\\\": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "a\\tb\\n\\\\": invalid syntax',
    ],
    [
      "a\rb\u0001",
      'Invalid cpuset value "a\\rb\\x01": Invalid CPU/NUMA set value: strconv.ParseInt: parsing "a\\rb\\x01": invalid syntax',
    ],
  ])("%j", (input, message) => {
    expect(messageOf(input)).toBe(message);
    const result = parseCpuLimit(input);
    expect(!result.ok && result.error.kind).toBe("invalid-cpuset");
  });

  it("a count too large for a number gets its own error", () => {
    expect(messageOf("18446744073709551615")).toBe(
      "CPU limit 18446744073709551615 asks for 18446744073709551615 CPUs, more than the largest supported count of 9007199254740991",
    );
  });

  it("countCpuset reads a plain number as one CPU id", () => {
    expect(countCpuset("7")).toEqual({ ok: true, value: 1 });
  });
});
