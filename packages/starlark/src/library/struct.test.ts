import { describe, expect, it } from "vitest";
import { binary, callValue, equals, getAttr, repr, StarEvalError, Thread } from "../values/index.js";
import { gensymBuiltin, structBuiltin } from "./struct.js";

const t = new Thread();
const err = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(StarEvalError);
    return (e as Error).message;
  }
  throw new Error("expected an error");
};

describe("struct and gensym", () => {
  it("builds, compares, prints and adds structs as starlarkstruct does", () => {
    const s = callValue(
      t,
      structBuiltin,
      [],
      [
        ["port", 80],
        ["host", "localhost"],
      ],
    );
    expect(repr(s)).toBe('struct(host = "localhost", port = 80)');
    expect(err(() => getAttr(t, s, "protocol"))).toBe("struct has no .protocol attribute");
    const hostport = callValue(t, gensymBuiltin, [], [["name", "hostport"]]);
    const person = callValue(t, gensymBuiltin, [], [["name", "person"]]);
    const http = callValue(t, hostport, [], [["host", "localhost"]]);
    expect(equals(http, callValue(t, hostport, [], [["host", "localhost"]]))).toBe(true);
    expect(equals(http, s)).toBe(false);
    expect(err(() => getAttr(t, http, "x"))).toBe("hostport struct has no .x attribute");
    const bob = callValue(
      t,
      person,
      [],
      [
        ["name", "bob"],
        ["age", 50],
      ],
    );
    const alice = callValue(
      t,
      person,
      [],
      [
        ["name", "alice"],
        ["city", "NYC"],
      ],
    );
    expect(repr(binary("+", alice, bob))).toBe('person(age = 50, city = "NYC", name = "bob")');
    expect(err(() => binary("+", http, bob))).toBe(
      "cannot add structs of different constructors: hostport + person",
    );
    expect(err(() => binary("+", alice, 1))).toBe("unknown binary op: struct + int");
  });
});
