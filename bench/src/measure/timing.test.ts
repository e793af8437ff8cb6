import { describe, expect, it } from "vitest";
import { timeEachAgainst, timeEachWithCpu } from "./timing.js";

/** Spins until this process has used `ms` of CPU time. */
function burnCpu(ms: number): void {
  const started = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(started);
    if ((used.user + used.system) / 1000 >= ms) return;
  }
}

describe("timeEachWithCpu", () => {
  it("records wall and CPU time of every run", async () => {
    const { wall, cpu } = await timeEachWithCpu(3, async (i) => burnCpu(5 * (i + 1)));
    expect(wall).toHaveLength(3);
    expect(cpu).toHaveLength(3);
    for (const [i, ms] of cpu.entries()) expect(ms).toBeGreaterThanOrEqual(5 * (i + 1));
    for (const ms of wall) expect(ms).toBeGreaterThan(0);
  });

  it("counts no CPU for a run that only waits", async () => {
    const { wall, cpu } = await timeEachWithCpu(1, () => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(wall[0]).toBeGreaterThanOrEqual(29);
    expect(cpu[0]).toBeLessThan(wall[0]!);
  });
});

describe("timeEachAgainst", () => {
  it("records how far the clock moved over each run, reading it outside the timed span", async () => {
    let now = 0;
    // Every read of the clock is slow (a server's /proc files): it must not count as the run's wall time.
    const slowClock = () => {
      const until = performance.now() + 20;
      while (performance.now() < until) {}
      return now;
    };
    const { wall, clock } = await timeEachAgainst(
      3,
      async (i) => {
        now += i + 1;
      },
      slowClock,
    );
    expect(clock).toEqual([1, 2, 3]);
    for (const ms of wall) expect(ms).toBeLessThan(20);
  });
});
