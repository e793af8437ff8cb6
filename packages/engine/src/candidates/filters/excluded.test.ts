import { describe, expect, it } from "vitest";
import { excludedFilter } from "./excluded.js";

describe("excluded filter", () => {
  it("turns down the members the request excludes, and no other", () => {
    const request = { excluded: new Set(["n1"]) };
    expect(excludedFilter.reject({ name: "n1" }, request)).toMatchObject({
      code: "excluded",
      one: "is the instance's current member",
      many: "are the instance's current members",
      capacity: false,
    });
    expect(excludedFilter.reject({ name: "n2" }, request)).toBeUndefined();
    expect(excludedFilter.reject({ name: "n1" }, { excluded: new Set<string>() })).toBeUndefined();
  });

  it("is static and also checks a member named directly", () => {
    expect(excludedFilter).toMatchObject({ kind: "static" });
    expect(excludedFilter.reads).toEqual({ request: ["excluded"], member: [] });
  });
});
