import { describe, expect, it } from "vitest";
import { type Builtin, Thread, type Value } from "../values/index.js";
import { universe } from "./universe.js";

const int = universe().get("int") as Builtin;
const t = new Thread();
const outcome = (args: Value[]): unknown => {
  try {
    return int.call(t, args, []);
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
};

describe("int(str) fast path", () => {
  it("gives what the general path (explicit base 10) gives", () => {
    const texts = [
      "0",
      "7",
      "007",
      "000",
      "42",
      "123456789012345",
      "999999999999999",
      "1234567890123456",
      "9007199254740993",
    ];
    for (const s of texts) expect(outcome([s]), s).toEqual(outcome([s, 10]));
    expect(outcome(["123456789012345"])).toBe(123456789012345);
    expect(outcome(["9007199254740993"])).toBe(9007199254740993n);
  });

  it("leaves signs, prefixes, spaces and errors to the general path", () => {
    expect(outcome(["-12"])).toBe(-12);
    expect(outcome(["0x1f"])).toBe("error: int: invalid literal with base 10: 0x1f");
    expect(outcome([" 1"])).toBe("error: int: invalid literal with base 10:  1");
    expect(outcome([""])).toBe("error: int: invalid literal with base 10: ");
    // the characters either side of the digits in ASCII
    expect(outcome(["1/2"])).toBe("error: int: invalid literal with base 10: 1/2");
    expect(outcome(["9:0"])).toBe("error: int: invalid literal with base 10: 9:0");
  });
});
