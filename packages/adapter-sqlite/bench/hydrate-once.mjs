/**
 * One measured start-up in a fresh process, so RSS is the hydration's own:
 * openStore (migration check) + snapshot(). Prints one JSON line.
 */
import { openStore } from "../dist/index.js";

const file = process.argv[2];
if (file === undefined) throw new Error("usage: hydrate-once.mjs <db>");
global.gc?.();
const before = process.memoryUsage();
const started = performance.now();
const store = await openStore(file);
const opened = performance.now();
const snapshot = await store.snapshot();
const finished = performance.now();
const after = process.memoryUsage();
const instances = snapshot.instanceCounts.reduce((sum, row) => sum + row.instances, 0);
process.stdout.write(
  `${JSON.stringify({
    openMs: opened - started,
    snapshotMs: finished - opened,
    totalMs: finished - started,
    rssBeforeMiB: before.rss / 2 ** 20,
    rssAfterMiB: after.rss / 2 ** 20,
    heapUsedMiB: after.heapUsed / 2 ** 20,
    members: snapshot.members.length,
    instances,
    instanceCountRows: snapshot.instanceCounts.length,
    usageRows: snapshot.usage.length,
  })}\n`,
);
await store.close();
