import { describe, expect, it } from "vitest";
import { newInstance, refusal } from "../../testing/claim-rows.fixture.js";
import { requireProjects } from "./projects.js";

describe("requireProjects", () => {
  it("names the first record's project that does not exist", () => {
    const records = [
      newInstance("a", "n1"),
      newInstance("b", "n1", {}, { project: "gone" }),
      newInstance("c", "n1", {}, { project: "other" }),
    ];
    const error = refusal(() => requireProjects(records, new Set(["default"])));
    expect([error.kind, error.message]).toEqual(["not_found", 'Project "gone" not found']);
    expect(() => requireProjects(records, new Set(["default", "gone", "other"]))).not.toThrow();
  });
});
