import { describe, expect, it } from "vitest";
import { checkExpiry, expiryAfter, INVALID_EXPIRY, parseExpiry } from "./expiry.js";
import { checkServerConfigValue, effectiveServerConfig, serverConfigErrorMessage } from "./server-config.js";

const at = Date.parse("2026-01-31T10:00:00Z");

describe("Incus expiry expressions", () => {
  it("adds each unit, calendar units as Go's AddDate", () => {
    expect(new Date(expiryAfter(at, "6H")!).toISOString()).toBe("2026-01-31T16:00:00.000Z");
    expect(new Date(expiryAfter(at, "1d 3H 5M 7S")!).toISOString()).toBe("2026-02-01T13:05:07.000Z");
    expect(new Date(expiryAfter(at, "2w")!).toISOString()).toBe("2026-02-14T10:00:00.000Z");
    // 31 January + 1 month is "31 February", which Go (and this) normalise to 3 March.
    expect(new Date(expiryAfter(at, "1m")!).toISOString()).toBe("2026-03-03T10:00:00.000Z");
    expect(new Date(expiryAfter(at, "1y")!).toISOString()).toBe("2027-01-31T10:00:00.000Z");
    expect(expiryAfter(at, "")).toBe(at);
  });

  it("refuses what Incus refuses, with its text", () => {
    for (const bad of ["6h", "H", "6", "1d  2H", "1d 1d", "-1H", "1.5H", "6H,"]) {
      expect(parseExpiry(bad), bad).toBeUndefined();
      expect(checkExpiry(bad)).toBe(INVALID_EXPIRY);
    }
    expect(checkExpiry(" 6H ")).toBeUndefined();
  });
});

describe("cluster.rebalance.* keys", () => {
  it("have Incus's defaults", () => {
    expect(effectiveServerConfig({}).rebalance).toEqual({
      intervalMinutes: 0,
      thresholdPercent: 20,
      batch: 1,
      cooldown: "6H",
    });
    expect(
      effectiveServerConfig({
        "cluster.rebalance.interval": "1",
        "cluster.rebalance.threshold": "10",
        "cluster.rebalance.batch": "3",
        "cluster.rebalance.cooldown": "1d",
      }).rebalance,
    ).toEqual({ intervalMinutes: 1, thresholdPercent: 10, batch: 3, cooldown: "1d" });
  });

  it("refuse bad values with Incus's texts", () => {
    const cases: [string, string, string][] = [
      ["cluster.rebalance.threshold", "5", "Value must be between 10 and 100"],
      ["cluster.rebalance.threshold", "101", "Value must be between 10 and 100"],
      ["cluster.rebalance.threshold", "ten", "invalid integer"],
      ["cluster.rebalance.interval", "1.5", "invalid integer"],
      ["cluster.rebalance.interval", "9223372036854775808", "invalid integer"],
      ["cluster.rebalance.batch", "many", "invalid integer"],
      ["cluster.rebalance.cooldown", "6 hours", INVALID_EXPIRY],
    ];
    for (const [key, value, reason] of cases) expect(checkServerConfigValue(key, value), value).toBe(reason);
    expect(
      serverConfigErrorMessage("cluster.rebalance.threshold", "5", "Value must be between 10 and 100"),
    ).toBe('Cannot set "cluster.rebalance.threshold" to "5": Value must be between 10 and 100');
    // Incus's Int64 keys take negative numbers: an interval below 1 disables the runs.
    expect(checkServerConfigValue("cluster.rebalance.interval", "-1")).toBeUndefined();
  });
});
