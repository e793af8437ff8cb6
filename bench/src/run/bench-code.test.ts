import { describe, expect, it } from "vitest";
import { benchCodesToTry } from "./bench-code.js";

describe("which bench code measures the baseline", () => {
  it("tries this checkout's first, then the baseline's own, until a run succeeded", () => {
    expect(benchCodesToTry(undefined, true)).toEqual(["this checkout", "baseline's own"]);
  });

  it("has nothing to fall back to when the baseline has no bench code of its own", () => {
    expect(benchCodesToTry(undefined, false)).toEqual(["this checkout"]);
  });

  it("keeps the code of the step's first successful run, so its median never mixes two benches", () => {
    expect(benchCodesToTry("baseline's own", true)).toEqual(["baseline's own"]);
    expect(benchCodesToTry("this checkout", true)).toEqual(["this checkout"]);
  });
});
