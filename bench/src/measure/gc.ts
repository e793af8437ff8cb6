import { PerformanceObserver } from "node:perf_hooks";

/**
 * Sums garbage-collection pauses while `work` runs: a placement benchmark
 * whose store keeps a million records in the same heap pays for them in GC,
 * which this separates from the placement's own cost.
 */
export async function withGcTime<T>(
  work: () => Promise<T>,
): Promise<{ result: T; gcMs: number; gcPauses: number }> {
  let gcMs = 0;
  let gcPauses = 0;
  const add = (entries: readonly { duration: number }[]) => {
    for (const entry of entries) {
      gcMs += entry.duration;
      gcPauses += 1;
    }
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  try {
    const result = await work();
    // Entries are delivered asynchronously: collect the ones still queued.
    await new Promise((resolve) => setTimeout(resolve, 0));
    add(observer.takeRecords());
    return { result, gcMs: Math.round(gcMs), gcPauses };
  } finally {
    observer.disconnect();
  }
}
