/**
 * Child process for the multi-process race test: opens its own connection to
 * the shared file and claims 1-VCPU instances (in small multi-member
 * batches) until every member refuses for capacity. Prints one JSON line.
 *   node --import tsx claim-racer.fixture.ts <db> <worker> <member,member,...> <batch>
 */
import { EngineError } from "@berth/engine";
import { openStore } from "../src/open-store.js";
import { readStdinLine } from "./child-process.fixture.js";
import { instanceOf } from "./records.fixture.js";

const [dbPath, worker, memberList, batchText] = process.argv.slice(2);
if (dbPath === undefined || worker === undefined || memberList === undefined || batchText === undefined) {
  throw new Error("usage: claim-racer.fixture.ts <db> <worker> <members> <batch>");
}
const batchSize = Number(batchText);
const open = new Set(memberList.split(","));
const store = await openStore(dbPath);
// Start together: each child reports ready, then waits for the parent's go.
process.stdout.write("ready\n");
await readStdinLine();
let created = 0;
let refused = 0;
let busy = 0;
let sequence = 0;
const pick = () => {
  const list = [...open];
  return list[Math.floor(Math.random() * list.length)]!;
};
/** Claims a batch; returns the member that ran out, if that is why it failed. */
async function attempt(batch: ReturnType<typeof instanceOf>[]): Promise<string | undefined> {
  try {
    await store.claim({ create: batch });
    created += batch.length;
    return undefined;
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    const details = error.details as { reason?: string; member?: string } | undefined;
    if (
      error.kind === "insufficient_capacity" &&
      details?.reason === "capacity" &&
      details.member !== undefined
    ) {
      refused += 1;
      return details.member;
    }
    if (details?.reason === "busy") {
      busy += 1;
      return undefined;
    }
    throw error;
  }
}

while (open.size > 0) {
  // Requests arrive with gaps, as at a server. Without them one process can
  // re-take the write lock back to back while the other's busy handler
  // sleeps (SQLite's busy wait is not fair), and the race degenerates into
  // one process doing all the work.
  await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 2));
  const batch = Array.from({ length: batchSize }, () =>
    instanceOf(`${worker}-${++sequence}`, pick(), { VCPU: 1 }),
  );
  const full = await attempt(batch);
  // A batch is all-or-nothing, so its failure only says the member had less
  // room than the batch wanted there; a single claim that fails says it is
  // full (nothing is ever freed in this test).
  if (
    full !== undefined &&
    (await attempt([instanceOf(`${worker}-${++sequence}`, full, { VCPU: 1 })])) === full
  ) {
    open.delete(full);
  }
}
await store.close();
process.stdout.write(`${JSON.stringify({ worker, created, refused, busy })}\n`);
