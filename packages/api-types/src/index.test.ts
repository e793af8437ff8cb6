import { describe, expect, it } from "vitest";
import { packageName } from "./index.js";

describe("api-types", () => {
  it("names itself", () => {
    expect(packageName).toBe("@berth/api-types");
  });
});
