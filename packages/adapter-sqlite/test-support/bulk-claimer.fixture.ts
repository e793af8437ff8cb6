/**
 * Child process for the crash test: opens the shared file, waits for "go" on
 * stdin, then places one all-or-nothing batch of <count> instances spread
 * over the members, in project <batch-name>, printing "claiming" just before and "claimed <ms>" after.
 *   node --import tsx bulk-claimer.fixture.ts <db> <batch-name> <count> <member,member,...>
 */
import { openStore } from "../src/open-store.js";
import { readStdinLine } from "./child-process.fixture.js";
import { instanceOf } from "./records.fixture.js";

const [dbPath, batchName, countText, memberList] = process.argv.slice(2);
if (dbPath === undefined || batchName === undefined || countText === undefined || memberList === undefined) {
  throw new Error("usage: bulk-claimer.fixture.ts <db> <batch-name> <count> <members>");
}
const members = memberList.split(",");
const batch = Array.from({ length: Number(countText) }, (_, i) =>
  instanceOf(
    `${batchName}-${i}`,
    members[i % members.length]!,
    { VCPU: 1, MEMORY_MB: 256 },
    { project: batchName },
  ),
);
const store = await openStore(dbPath);
process.stdout.write("ready\n");
await readStdinLine();
process.stdout.write("claiming\n");
const started = performance.now();
await store.claim({ create: batch });
process.stdout.write(`claimed ${Math.round(performance.now() - started)}\n`);
await store.close();
