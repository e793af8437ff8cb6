/**
 * A soak (#34): a real berthd on a SQLite file takes CYCLES creates and as
 * many deletes over HTTP (16 clients, each creating an instance and
 * deleting it again), so the cluster stays small while the process and the
 * database live through a long run. Reported at the start and the end:
 * berthd's RSS, the database's size on disk (file and WAL) and the length of
 * the change log. No bar: these are figures to watch for growth.
 *
 * The change log is pruned by time, not by length: every minute, entries
 * older than 15 minutes go (adapter-sqlite store/feed.ts). A run shorter
 * than that keeps every entry it wrote; its length is bounded by the write
 * rate times the retention, not by a count.
 *   node dist/benches/soak.js [--quick] [--cycles=N]
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import Database from "libsql";
import { tempDir } from "../measure/temp.js";
import { log, since } from "../measure/timing.js";
import { clusterFile } from "../reliability/cluster.js";
import { type BarResult, figure, writeResult } from "../report/results.js";
import { Berthd } from "../server/berthd.js";

const quick = process.argv.includes("--quick");
const cyclesFlag = process.argv.find((a) => a.startsWith("--cycles="))?.slice("--cycles=".length);
/** Creates, each followed by its delete: 200,000 of each in a full run (`--cycles=N` for another length). */
const CYCLES = cyclesFlag !== undefined ? Number(cyclesFlag) : quick ? 2_000 : 200_000;
if (!Number.isInteger(CYCLES) || CYCLES < 1) throw new Error(`--cycles=${cyclesFlag}: a whole number >= 1`);
const CLIENTS = 16;
const MEMBERS = 10;

interface Sample {
  atCycle: number;
  rssMiB: number;
  databaseMiB: number;
  changeLogEntries: number;
}

function sizeMiB(path: string): number {
  try {
    return statSync(path).size / (1024 * 1024);
  } catch {
    return 0;
  }
}

function sample(server: Berthd, db: string, atCycle: number): Sample {
  const reader = new Database(db, { readonly: true });
  try {
    const row = reader.prepare("SELECT count(*) AS n FROM change_log").get() as { n: number };
    return {
      atCycle,
      rssMiB: server.memory().rssMiB,
      databaseMiB: Math.round((sizeMiB(db) + sizeMiB(`${db}-wal`)) * 10) / 10,
      changeLogEntries: Number(row.n),
    };
  } finally {
    reader.close();
  }
}

const started = performance.now();
const { dir, cleanup } = tempDir("soak");
const samples: Sample[] = [];
let failures = 0;
let soakMs = 0;
try {
  const db = join(dir, "berth.db");
  const token = await clusterFile(db, MEMBERS, {
    VCPU: { total: 1_000 },
    MEMORY_MB: { total: 1024 * 1024 },
  });
  const server = await Berthd.start({ db, token, logLevel: "warn" });
  try {
    samples.push(sample(server, db, 0));
    let next = 0;
    let done = 0;
    const soakStarted = performance.now();
    const client = async () => {
      for (let cycle = next++; cycle < CYCLES; cycle = next++) {
        const name = `s${cycle}`;
        const created = await server.request("POST", "/1.0/instances", {
          name,
          config: { "limits.cpu": "1", "limits.memory": "64MiB" },
        });
        if (created.status !== 201) failures += 1;
        else if ((await server.request("DELETE", `/1.0/instances/${name}`)).status !== 200) failures += 1;
        done += 1;
        if (done % Math.max(1, Math.floor(CYCLES / 10)) === 0) {
          const now = sample(server, db, done);
          samples.push(now);
          log(
            `${done} cycles: RSS ${now.rssMiB} MiB, database ${now.databaseMiB} MiB, change log ${now.changeLogEntries} entries`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    soakMs = since(soakStarted);
    samples.push(sample(server, db, CYCLES));
  } finally {
    await server.stop();
  }
} finally {
  cleanup();
}

const first = samples[0]!;
const last = samples[samples.length - 1]!;
const bars: BarResult[] = [
  figure(
    "soak.rss.start",
    `soak: berthd RSS at start (${CYCLES} creates + deletes to come)`,
    first.rssMiB,
    "MiB",
    null,
  ),
  figure("soak.rss.end", `soak: berthd RSS after ${CYCLES} creates + deletes`, last.rssMiB, "MiB", null),
  figure("soak.db.start", "soak: database + WAL at start", first.databaseMiB, "MiB", null),
  figure("soak.db.end", "soak: database + WAL at end", last.databaseMiB, "MiB", null),
  figure("soak.log.start", "soak: change-log entries at start", first.changeLogEntries, "entries", null),
  figure(
    "soak.log.end",
    "soak: change-log entries at end (pruned by age: 15 min)",
    last.changeLogEntries,
    "entries",
    null,
  ),
  figure("soak.failures", "soak: creates or deletes not answered 201/200", failures, "requests", null),
  figure(
    "soak.rate",
    "soak: cycles (create + delete) per second",
    Math.round((CYCLES / soakMs) * 1000),
    "cycles/s",
    null,
  ),
];
writeResult("soak.json", {
  benchmark: "soak: creates and deletes on one berthd",
  durationMs: since(started),
  bars,
  details: { cycles: CYCLES, clients: CLIENTS, members: MEMBERS, samples },
});
for (const bar of bars) log(`${bar.bar}: ${bar.measured} ${bar.unit}`);
if (failures > 0) process.exitCode = 1;
