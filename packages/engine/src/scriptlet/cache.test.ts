import { describe, expect, it } from "vitest";
import { ProgramCache } from "./cache.js";

describe("ProgramCache", () => {
  it("compiles once per version and source", () => {
    const cache = new ProgramCache<string>(2);
    let compiles = 0;
    const compile = (src: string) => {
      compiles++;
      return `compiled:${src}`;
    };
    expect(cache.getOrCompile(1, "a", compile)).toBe("compiled:a");
    expect(cache.getOrCompile(1, "a", compile)).toBe("compiled:a");
    expect(compiles).toBe(1);
  });

  it("recompiles when a version number comes back with different source", () => {
    const cache = new ProgramCache<string>(2);
    cache.set(1, "a", "A");
    expect(cache.get(1, "b")).toBeUndefined();
    expect(cache.getOrCompile(1, "b", (s) => s.toUpperCase())).toBe("B");
    expect(cache.get(1, "a")).toBeUndefined();
  });

  it("keeps only the most recently used versions", () => {
    const cache = new ProgramCache<string>(2);
    cache.set(1, "a", "A");
    cache.set(2, "b", "B");
    expect(cache.get(1, "a")).toBe("A"); // 1 is now the most recent
    cache.set(3, "c", "C");
    expect(cache.size).toBe(2);
    expect(cache.get(2, "b")).toBeUndefined();
    expect(cache.get(1, "a")).toBe("A");
    expect(cache.get(3, "c")).toBe("C");
  });

  it("does not cache a failed compile", () => {
    const cache = new ProgramCache<string>(2);
    expect(() =>
      cache.getOrCompile(1, "bad", () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(cache.size).toBe(0);
  });

  it("rejects a capacity that is not a positive integer", () => {
    expect(() => new ProgramCache(0)).toThrow("ProgramCache capacity must be a positive integer, got 0");
  });
});
