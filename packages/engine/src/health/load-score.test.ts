import { describe, expect, it } from "vitest";
import { differencePercent, loadScore } from "./load-score.js";

describe("Incus's load score", () => {
  it("is the truncated mean of truncated memory and CPU percentages", () => {
    const usage = { memoryUsed: 1000, memoryTotal: 3000, cpuUsed: 3, cpuTotal: 8 };
    // memory 33.3 -> 33, cpu 37.5 -> 37, mean 35
    expect(loadScore(usage)).toBe(35);
    // An arriving instance adds CPUs to CPUs and memory to memory (Incus swaps them).
    expect(loadScore(usage, { cpu: 1, memory: 500 })).toBe(Math.trunc((50 + 50) / 2));
    expect(loadScore(usage, { cpu: 4, memory: 0 })).toBe(Math.trunc((33 + 87) / 2));
  });

  it("counts a missing inventory as unused", () => {
    expect(loadScore({ memoryUsed: 0, memoryTotal: 0, cpuUsed: 2, cpuTotal: 4 })).toBe(25);
  });

  it("measures the difference in percent of the busiest member's score", () => {
    expect(differencePercent(80, 60)).toBe(25);
    expect(differencePercent(81, 65)).toBe(19);
    expect(differencePercent(0, 0)).toBe(0);
  });
});
