/**
 * The LISTEN connection tells another server's write from its own: the
 * group commit's delay (batch-turns.ts) only applies while others write.
 */
import { createTestDatabase } from "@berth/postgres-test-server";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { FeedListener } from "./feed.js";

const unavailable = inject("postgresUnavailable");

let one: FeedListener;
let other: FeedListener;
beforeAll(async () => {
  if (unavailable !== "") return;
  const url = await createTestDatabase(inject("postgresAdminUrl"));
  one = new FeedListener(url);
  other = new FeedListener(url);
  one.start();
  other.start();
  for (let waited = 0; waited < 500 && !(one.live && other.live); waited++)
    await new Promise((resolve) => setTimeout(resolve, 20));
});
afterAll(async () => {
  await one?.close();
  await other?.close();
});

it.skipIf(unavailable !== "")(
  "counts another server's notifications as others writing, never its own",
  async () => {
    let wakes = 0;
    one.watch(() => {
      wakes += 1;
    });
    const before = wakes;
    expect(one.live && other.live).toBe(true);
    one.notify();
    // The other server hears it as someone else's write.
    await expect.poll(() => other.othersWroteWithin(60_000)).toBe(true);
    // Its own notification comes back on its own connection (by now, or a moment later): no
    // wake-up, nobody else writing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(wakes).toBe(before);
    expect(one.othersWroteWithin(60_000)).toBe(false);
    other.notify();
    await expect.poll(() => one.othersWroteWithin(60_000)).toBe(true);
    expect(wakes).toBe(before + 1);
  },
);
