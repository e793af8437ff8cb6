import { describe, expect, it } from "vitest";
import { withoutNullFields } from "./json-body.js";

describe("LXD's nulls in request bodies", () => {
  it("reads a null object field as absent, at any depth", () => {
    expect(
      withoutNullFields({
        config: null,
        profiles: null,
        source: { type: "image", alias: null },
        target: null,
      }),
    ).toEqual({ source: { type: "image" } });
  });

  it("keeps nulls inside lists (still refused with the item's path) and leaves scalars alone", () => {
    expect(withoutNullFields({ profiles: ["a", null] })).toEqual({ profiles: ["a", null] });
    expect(withoutNullFields(null)).toBeNull();
    expect(withoutNullFields("x")).toBe("x");
  });
});
