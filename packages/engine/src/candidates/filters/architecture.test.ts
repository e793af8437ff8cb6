import { describe, expect, it } from "vitest";
import { architectureFilter, supportedArchitectures } from "./architecture.js";

describe("architecture filter", () => {
  const on = (architecture: string) => ({ name: "n1", architecture });

  it("admits every member when the instance can run anywhere", () => {
    expect(architectureFilter.reject(on("s390x"), { architectures: null })).toBeUndefined();
  });

  it("admits a 64-bit member for its 32-bit personalities", () => {
    expect(supportedArchitectures("aarch64")).toEqual(["aarch64", "armv6l", "armv7l", "armv8l"]);
    expect(architectureFilter.reject(on("x86_64"), { architectures: ["i686"] })).toBeUndefined();
    expect(architectureFilter.reject(on("aarch64"), { architectures: ["armv7l"] })).toBeUndefined();
  });

  it("turns down members that can run none of the architectures", () => {
    expect(architectureFilter.reject(on("x86_64"), { architectures: ["aarch64", "armv7l"] })).toMatchObject({
      code: "arch:aarch64/armv7l",
      one: "can't run aarch64/armv7l",
    });
    expect(architectureFilter.reject(on("i686"), { architectures: ["x86_64"] })).toBeDefined();
  });
});
