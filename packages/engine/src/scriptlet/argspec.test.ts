import { None } from "@berth/starlark";
import { describe, expect, it } from "vitest";
import { nearestSpelling, type ParamSpec, unpackBuiltinArgs } from "./argspec.js";

const PARAMS: ParamSpec[] = [
  { name: "project", type: "string", optional: true },
  { name: "location", type: "string", optional: true },
  { name: "pending", type: "bool", optional: true },
];

describe("unpackBuiltinArgs", () => {
  it("binds positional and keyword arguments, None meaning omitted for optional ones", () => {
    expect(unpackBuiltinArgs("f", ["p"], [["pending", true]], PARAMS)).toEqual(["p", undefined, true]);
    expect(unpackBuiltinArgs("f", [None, "l"], [], PARAMS)).toEqual([undefined, "l", undefined]);
    expect(unpackBuiltinArgs("f", [], [], PARAMS)).toEqual([undefined, undefined, undefined]);
  });

  it("refuses None for a required parameter", () => {
    expect(() =>
      unpackBuiltinArgs("g", [None], [], [{ name: "member_name", type: "string", optional: false }]),
    ).toThrow("g: for parameter member_name: got NoneType, want string");
  });

  it("names the parameter a keyword argument failed on", () => {
    expect(() => unpackBuiltinArgs("f", [], [["location", 3]], PARAMS)).toThrow(
      "f: for parameter location: got int, want string",
    );
  });
});

describe("nearestSpelling (go.starlark.net spell.Nearest)", () => {
  it("ignores case and underscores and allows up to half the letters wrong", () => {
    expect(nearestSpelling("Member_Nam", ["member_name"])).toBe("member_name");
    expect(nearestSpelling("locaton", ["project", "location"])).toBe("location");
    expect(nearestSpelling("member", ["member_name"])).toBeUndefined();
    expect(nearestSpelling("x", ["y"])).toBeUndefined();
  });
});
