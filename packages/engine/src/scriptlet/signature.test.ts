import { describe, expect, it } from "vitest";
import { checkEntryPoint } from "./signature.js";

describe("checkEntryPoint (Incus validation texts)", () => {
  it("accepts request and candidate_members in any order", () => {
    expect(checkEntryPoint({ kind: "function", params: ["request", "candidate_members"] })).toEqual({
      ok: true,
      declaresReason: false,
    });
    expect(checkEntryPoint({ kind: "function", params: ["candidate_members", "request"] })).toEqual({
      ok: true,
      declaresReason: false,
    });
  });

  it("accepts the pre-release form with reason", () => {
    expect(checkEntryPoint({ kind: "function", params: ["reason", "request", "candidate_members"] })).toEqual(
      {
        ok: true,
        declaresReason: true,
      },
    );
  });

  it("reports a missing function", () => {
    expect(checkEntryPoint({ kind: "missing" })).toEqual({
      ok: false,
      message: 'the function "instance_placement" is required but has not been found in the scriptlet',
    });
  });

  it("reports a global that is not a function", () => {
    expect(checkEntryPoint({ kind: "not_function", typeName: "int" })).toEqual({
      ok: false,
      message:
        '"instance_placement" should define the scriptlet\u2019s required function of the same name (found a value of type int instead)',
    });
  });

  it("reports wrong parameter names, sorted when the counts match", () => {
    expect(checkEntryPoint({ kind: "function", params: ["req", "members"] })).toEqual({
      ok: false,
      message:
        'the required function "instance_placement" defines arguments ["members" "req"] (expected ["candidate_members" "request"])',
    });
  });

  it("reports extra parameters such as **kwargs unsorted", () => {
    expect(
      checkEntryPoint({ kind: "function", params: ["request", "candidate_members", "extra", "kwargs"] }),
    ).toEqual({
      ok: false,
      message:
        'the required function "instance_placement" defines arguments ["request" "candidate_members" "extra" "kwargs"] (expected ["candidate_members" "request"])',
    });
  });

  it("compares three parameters against the reason form", () => {
    expect(checkEntryPoint({ kind: "function", params: ["why", "request", "candidate_members"] })).toEqual({
      ok: false,
      message:
        'the required function "instance_placement" defines arguments ["candidate_members" "request" "why"] (expected ["candidate_members" "reason" "request"])',
    });
  });
});
