import { describe, expect, it } from "vitest";
import { ago, classLabel, formatAmount, percent } from "./amounts.js";

describe("amounts as an operator reads them", () => {
  it("scales memory and disk by 1024, keeping whole numbers whole", () => {
    expect(formatAmount("MEMORY_MB", 512)).toBe("512 MiB");
    expect(formatAmount("MEMORY_MB", 63_488)).toBe("62 GiB");
    expect(formatAmount("MEMORY_MB", 1536)).toBe("1.5 GiB");
    expect(formatAmount("DISK_GB", 1000)).toBe("1000 GiB");
    expect(formatAmount("DISK_GB", 500)).toBe("500 GiB");
    expect(formatAmount("DISK_GB", 2048)).toBe("2 TiB");
    expect(formatAmount("DISK_GB", 4500)).toBe("4.39 TiB");
  });

  it("counts other classes, with thousands separators", () => {
    expect(formatAmount("VCPU", 12_800)).toBe("12,800");
    expect(formatAmount("CUSTOM_GPU", 2)).toBe("2");
    expect(formatAmount("VCPU", 2.5)).toBe("2.50");
  });

  it("labels the standard classes briefly, and percentages without false precision", () => {
    expect([
      classLabel("VCPU"),
      classLabel("MEMORY_MB"),
      classLabel("DISK_GB"),
      classLabel("CUSTOM_X"),
    ]).toEqual(["vCPU", "Memory", "Disk", "CUSTOM_X"]);
    expect(percent(0.256)).toBe("26%");
    expect(percent(Number.NaN)).toBe("–");
  });

  it("says how long ago", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    expect(ago(new Date("2026-01-01T11:59:58Z"), now)).toBe("2 s ago");
    expect(ago(new Date("2026-01-01T11:55:00Z"), now)).toBe("5 min ago");
    expect(ago(new Date("2026-01-01T09:00:00Z"), now)).toBe("3 h ago");
  });
});
