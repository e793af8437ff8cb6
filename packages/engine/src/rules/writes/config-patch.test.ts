import { describe, expect, it } from "vitest";
import { normalizedConfigPatch } from "./config-patch.js";

describe("normalizedConfigPatch", () => {
  it('unsets keys given "" or null, keeps values, leaves undefined keys out', () => {
    expect(normalizedConfigPatch({ a: "1", b: "", c: null, d: undefined })).toEqual({
      a: "1",
      b: null,
      c: null,
    });
  });
});
