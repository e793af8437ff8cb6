import { describe, expect, it } from "vitest";
import { memberState, NOW, TIME } from "../../testing/stack.fixture.js";
import { onlineFilter } from "./online.js";

describe("online filter", () => {
  const check = onlineFilter.bind({});

  it("admits members that heartbeated within the offline threshold", () => {
    const fresh = memberState("n1", { lastHeartbeat: new Date(NOW - 20_000).toISOString() });
    expect(check.admits(fresh, TIME)).toBe(true);
    expect(check.reject(fresh, TIME)).toBeUndefined();
  });

  it("turns down members silent for longer, or never heard from", () => {
    for (const lastHeartbeat of [new Date(NOW - 20_001).toISOString(), null]) {
      const silent = memberState("n1", { lastHeartbeat });
      expect(check.admits(silent, TIME)).toBe(false);
      expect(check.reject(silent, TIME)).toMatchObject({
        code: "offline",
        one: "is offline",
        many: "are offline",
      });
    }
  });

  it("is judged by the clock it is given, not the request (usage-dependent, automatic placement only)", () => {
    const member = memberState("n1", { lastHeartbeat: new Date(NOW).toISOString() });
    expect(check.admits(member, { nowMs: NOW + 60_000, offlineThresholdMs: 20_000 })).toBe(false);
    expect(check.admits(member, { nowMs: NOW + 60_000, offlineThresholdMs: 90_000 })).toBe(true);
    expect(onlineFilter).toMatchObject({ kind: "usage", reads: { request: [] } });
  });
});
