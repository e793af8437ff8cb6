import { describe, expect, it } from "vitest";
import { evacuatedFilter } from "./evacuated.js";

describe("evacuated filter", () => {
  it("turns down evacuated members", () => {
    expect(evacuatedFilter.reject({ name: "n1", evacuated: true }, {})).toMatchObject({
      code: "evacuated",
      one: "is evacuated",
      many: "are evacuated",
    });
    expect(evacuatedFilter.reject({ name: "n1", evacuated: false }, {})).toBeUndefined();
  });

  it("reads only the member's evacuated flag", () => {
    expect(evacuatedFilter.reads).toEqual({ request: [], member: ["evacuated"] });
    expect(evacuatedFilter).toMatchObject({ kind: "static" });
  });
});
