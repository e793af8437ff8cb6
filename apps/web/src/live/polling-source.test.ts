import { describe, expect, it } from "vitest";
import { DEFAULT_POLL_MS, pollBaseFrom } from "./live.js";
import { MAX_POLL_MS, MIN_POLL_MS, pollDelay } from "./polling-source.js";

describe("the polling live source's pace", () => {
  it("polls at the base pace for small clusters, slower for big ones, within bounds", () => {
    expect(pollDelay(2_000, 4)).toBe(2_000);
    expect(pollDelay(2_000, 1_000)).toBe(2_000);
    expect(pollDelay(2_000, 3_500)).toBe(8_000);
    expect(pollDelay(2_000, 10_000)).toBe(20_000);
    expect(pollDelay(2_000, 1_000_000)).toBe(MAX_POLL_MS);
    expect(pollDelay(10, 0)).toBe(MIN_POLL_MS);
  });

  it("takes ?poll=MS from the console's address, ignoring nonsense", () => {
    expect(pollBaseFrom("?poll=300")).toBe(300);
    expect(pollBaseFrom("")).toBe(DEFAULT_POLL_MS);
    expect(pollBaseFrom("?poll=-5")).toBe(DEFAULT_POLL_MS);
    expect(pollBaseFrom("?poll=soon")).toBe(DEFAULT_POLL_MS);
  });
});
