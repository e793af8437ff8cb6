/**
 * When batches start: one at a time, a second beside a slow one, and a
 * pause after a busy batch only while other servers write.
 */
import { describe, expect, it } from "vitest";
import { BatchTurns, type BatchTurnsOptions, DELAYED_BATCH_MIN } from "./batch-turns.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Batches that each take `work` claims from a queue and run for `runMs`; records when each started and ended. */
function harness(options: BatchTurnsOptions & { others: boolean; runMs: number }) {
  let queued = 0;
  const started: number[] = [];
  const ended: number[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const turns = new BatchTurns(
    () => queued > 0,
    async () => {
      const size = queued;
      queued = 0;
      started.push(performance.now());
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await sleep(options.runMs);
      running -= 1;
      ended.push(performance.now());
      return size;
    },
    () => options.others,
    options,
  );
  return {
    add(claims: number) {
      queued += claims;
      turns.poke();
    },
    started,
    ended,
    mostAtOnce: () => mostAtOnce,
    queued: () => queued,
  };
}

describe("batch turns", () => {
  it("run one batch at a time; what arrives meanwhile goes in the next, at once when alone", async () => {
    const turns = harness({ others: false, runMs: 20, slowBatchMs: 10_000, commitDelayMs: 1_000 });
    turns.add(DELAYED_BATCH_MIN + 2);
    await sleep(5);
    turns.add(3);
    turns.add(2);
    await expect.poll(() => turns.ended.length).toBe(2);
    expect(turns.started).toHaveLength(2);
    expect(turns.mostAtOnce()).toBe(1);
    // No pause: nothing between the first batch's end and the second's start but a turn of the event loop.
    expect(turns.started[1]! - turns.ended[0]!).toBeLessThan(500);
  });

  it("start a second batch beside one that runs longer than slowBatchMs, never more than two", async () => {
    const turns = harness({ others: false, runMs: 150, slowBatchMs: 30 });
    turns.add(1);
    await sleep(5);
    turns.add(1);
    await sleep(5);
    await expect.poll(() => turns.started.length).toBe(2);
    turns.add(1);
    await sleep(60);
    expect(turns.mostAtOnce()).toBe(2);
    expect(turns.started[1]! - turns.started[0]!).toBeGreaterThanOrEqual(29);
    await expect.poll(() => turns.ended.length, { timeout: 2_000 }).toBe(3);
  });

  it("pause after a busy batch while other servers write, so the next holds more", async () => {
    const turns = harness({ others: true, runMs: 10, slowBatchMs: 10_000, commitDelayMs: 60 });
    turns.add(DELAYED_BATCH_MIN);
    await sleep(2);
    turns.add(1);
    await expect.poll(() => turns.ended.length).toBe(1);
    turns.add(1);
    await expect.poll(() => turns.started.length).toBe(2);
    expect(turns.started[1]! - turns.ended[0]!).toBeGreaterThanOrEqual(59);
    await expect.poll(() => turns.ended.length).toBe(2);
    expect(turns.queued()).toBe(0);
  });

  it("never pause after a small batch, nor with the delay off", async () => {
    for (const options of [
      { others: true, commitDelayMs: 1_000, size: DELAYED_BATCH_MIN - 1 },
      { others: true, commitDelayMs: 0, size: DELAYED_BATCH_MIN },
    ]) {
      const turns = harness({ ...options, runMs: 10, slowBatchMs: 10_000 });
      turns.add(options.size);
      await sleep(2);
      turns.add(1);
      await expect.poll(() => turns.ended.length).toBe(2);
      expect(turns.started[1]! - turns.ended[0]!).toBeLessThan(500);
    }
  });
});
