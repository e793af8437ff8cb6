/**
 * Bulk create of 10,000 instances on 1,000 members through the engine on a
 * fresh temp file (the README's Performance bar: committed in <= 2 s), timing the store's claim apart
 * from the engine's planning. Also times N single creates.
 *   node bench/bulk-claim.mjs [--runs=3] [--singles=300] [--instances=10000]
 * Needs the bench package built (it seeds with @berth/bench's generator).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine } from "@berth/engine";

const arg = (name, fallback) => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit === undefined ? fallback : Number(hit.split("=")[1]);
};
const runs = arg("runs", 3);
const singles = arg("singles", 300);
const seeded = arg("instances", 10_000);
const impl = process.argv.find((a) => a.startsWith("--impl="))?.slice(7);
// --impl=DIR: another build of this package (A/B against an older version).
const { openStore } = await import(impl === undefined ? "@berth/adapter-sqlite" : `${impl}/index.js`);
const { generateSqliteCluster } = await import("../../../bench/dist/cluster/seed-sqlite.js");

const dir = mkdtempSync(join(tmpdir(), "bulk-claim-"));
const config = { "limits.cpu": "1", "limits.memory": "1GiB" };
try {
  const db = join(dir, "berth.db");
  const log = console.log;
  console.log = () => undefined;
  await generateSqliteCluster(db, { members: 1000, instances: seeded });
  console.log = log;
  const store = await openStore(db);
  let claimMs = 0;
  let claimCpu = 0;
  const claim = store.claim.bind(store);
  store.claim = async (c) => {
    const t = performance.now();
    const cpu = process.cpuUsage();
    try {
      return await claim(c);
    } finally {
      claimMs += performance.now() - t;
      const d = process.cpuUsage(cpu);
      claimCpu += (d.user + d.system) / 1000;
    }
  };
  const engine = await Engine.open({ store });
  const bulk = [];
  for (let run = 0; run < runs; run++) {
    claimMs = 0;
    claimCpu = 0;
    const t = performance.now();
    const cpu = process.cpuUsage();
    await engine.bulkCreate(Array.from({ length: 10_000 }, (_, i) => ({ name: `b${run}-${i}`, config })));
    const d = process.cpuUsage(cpu);
    bulk.push({
      ms: Math.round(performance.now() - t),
      cpuMs: Math.round((d.user + d.system) / 1000),
      claimMs: Math.round(claimMs),
      claimCpuMs: Math.round(claimCpu),
    });
  }
  claimMs = 0;
  claimCpu = 0;
  const t = performance.now();
  for (let i = 0; i < singles; i++) await engine.createInstance({ name: `s${i}`, config });
  const singleMs = (performance.now() - t) / Math.max(1, singles);
  const singleClaimMs = claimMs / Math.max(1, singles);
  const singleClaimCpu = claimCpu / Math.max(1, singles);
  // 16 concurrent creates at a time (group commit), like the sustained HTTP load.
  claimMs = 0;
  const tc = performance.now();
  let n = 0;
  for (let round = 0; round < arg("rounds", 20); round++) {
    await Promise.all(Array.from({ length: 16 }, () => engine.createInstance({ name: `c${n++}`, config })));
  }
  const concurrentPerSec = Math.round(n / ((performance.now() - tc) / 1000));
  const check = await store.check();
  await store.close();
  console.log(
    JSON.stringify({
      bulk,
      single: {
        ms: +singleMs.toFixed(3),
        claimMs: +singleClaimMs.toFixed(3),
        claimCpuMs: +singleClaimCpu.toFixed(3),
      },
      concurrentPerSec,
      checkOk: check.ok,
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
