/**
 * A soak (#34): a real berthd on a SQLite file takes CYCLES creates and as
 * many deletes over HTTP (16 clients, each creating an instance and
 * deleting it again), so the cluster stays small while the process and the
 * database live through a long run. Reported at the start, the end, and
 * as the maximum over the second half of the run (sampled every few
 * seconds): berthd's RSS, the database's file size (file and WAL), its used
 * pages (page_count - freelist_count: SQLite never shrinks its file, so
 * the used pages are what a bound shows in) and the length of the change log.
 *
 * The change log is pruned by age, not by length (adapter-sqlite
 * store/feed.ts): berthd runs with `--feed-retention` RETENTION_S (60 s,
 * pruned every quarter of it), so a run of a few minutes passes the horizon
 * many times. The bar: over the second half the log stays under
 * cycles/s x 2 entries (a create and a delete) x retention x 1.5 (a prune
 * period's worth of late entries, plus headroom for the rate's swings).
 *   node dist/benches/soak.js [--quick] [--cycles=N]
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import Database from "libsql";
import { tempDir } from "../measure/temp.js";
import { log, since } from "../measure/timing.js";
import { clusterFile } from "../reliability/cluster.js";
import { atMost, type BarResult, figure, writeResult } from "../report/results.js";
import { Berthd } from "../server/berthd.js";

const quick = process.argv.includes("--quick");
const cyclesFlag = process.argv.find((a) => a.startsWith("--cycles="))?.slice("--cycles=".length);
/** Creates, each followed by its delete: 200,000 of each in a full run (`--cycles=N` for another length). */
const CYCLES = cyclesFlag !== undefined ? Number(cyclesFlag) : quick ? 2_000 : 200_000;
if (!Number.isInteger(CYCLES) || CYCLES < 1) throw new Error(`--cycles=${cyclesFlag}: a whole number >= 1`);
const CLIENTS = 16;
const MEMBERS = 10;
/** berthd's --feed-retention: short, so the run passes the horizon many times. */
const RETENTION_S = 60;
/** How often RSS, database and change log are sampled. */
const SAMPLE_EVERY_MS = 5_000;

interface Sample {
  atCycle: number;
  /** Since the soak started. */
  atMs: number;
  rssMiB: number;
  /** The file and its WAL on disk. */
  databaseMiB: number;
  /** Pages in use (page_count - freelist_count), MiB: what pruning frees, though the file keeps its size. */
  usedPagesMiB: number;
  changeLogEntries: number;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

function sizeMiB(path: string): number {
  try {
    return statSync(path).size / (1024 * 1024);
  } catch {
    return 0;
  }
}

function sample(server: Berthd, db: string, atCycle: number, atMs: number): Sample {
  const reader = new Database(db, { readonly: true });
  try {
    const row = reader.prepare("SELECT count(*) AS n FROM change_log").get() as { n: number };
    const pages = reader
      .prepare(
        "SELECT (SELECT page_count FROM pragma_page_count) - (SELECT freelist_count FROM pragma_freelist_count) AS used, (SELECT page_size FROM pragma_page_size) AS size",
      )
      .get() as { used: number; size: number };
    return {
      atCycle,
      atMs: Math.round(atMs),
      rssMiB: server.memory().rssMiB,
      databaseMiB: round1(sizeMiB(db) + sizeMiB(`${db}-wal`)),
      usedPagesMiB: round1((Number(pages.used) * Number(pages.size)) / (1024 * 1024)),
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
  const server = await Berthd.start({
    db,
    token,
    logLevel: "warn",
    env: { BERTH_FEED_RETENTION: String(RETENTION_S) },
  });
  try {
    samples.push(sample(server, db, 0, 0));
    let next = 0;
    let done = 0;
    const soakStarted = performance.now();
    const sampler = setInterval(
      () => samples.push(sample(server, db, done, since(soakStarted))),
      SAMPLE_EVERY_MS,
    );
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
          const now = sample(server, db, done, since(soakStarted));
          samples.push(now);
          log(
            `${done} cycles: RSS ${now.rssMiB} MiB, database ${now.databaseMiB} MiB (${now.usedPagesMiB} MiB used), change log ${now.changeLogEntries} entries`,
          );
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: CLIENTS }, client));
    } finally {
      clearInterval(sampler);
    }
    soakMs = since(soakStarted);
    samples.push(sample(server, db, CYCLES, soakMs));
  } finally {
    await server.stop();
  }
} finally {
  cleanup();
}

samples.sort((a, b) => a.atMs - b.atMs);
const first = samples[0]!;
const last = samples[samples.length - 1]!;
const secondHalf = samples.filter((s) => s.atMs >= soakMs / 2);
const maxOf = (pick: (s: Sample) => number) => Math.max(...secondHalf.map(pick));
const cyclesPerSecond = (CYCLES / soakMs) * 1000;
/** A create and a delete per cycle, kept for the retention, with half again for the prune period and the rate's swings. */
const logBound = Math.round(cyclesPerSecond * 2 * RETENTION_S * 1.5);
/** A watched quantity at the start, at the end and at its most over the second half. */
function watched(key: string, what: string, pick: (s: Sample) => number, unit: string): BarResult[] {
  return [
    figure(`soak.${key}.start`, `soak: ${what} at start`, pick(first), unit, null),
    figure(`soak.${key}.end`, `soak: ${what} at end`, pick(last), unit, null),
    figure(`soak.${key}.max2`, `soak: ${what}, most over the second half`, maxOf(pick), unit, null),
  ];
}
const bars: BarResult[] = [
  atMost(
    "soak.log.bounded",
    `soak: change log bounded: its longest over the second half <= cycles/s x 2 x ${RETENTION_S} s retention x 1.5`,
    maxOf((s) => s.changeLogEntries),
    logBound,
    "entries",
  ),
  ...watched("log", `change-log entries (retention ${RETENTION_S} s)`, (s) => s.changeLogEntries, "entries"),
  ...watched("rss", `berthd RSS (${CYCLES} creates + deletes)`, (s) => s.rssMiB, "MiB"),
  ...watched("db", "database file + WAL", (s) => s.databaseMiB, "MiB"),
  ...watched("pages", "database pages in use", (s) => s.usedPagesMiB, "MiB"),
  figure("soak.failures", "soak: creates or deletes not answered 201/200", failures, "requests", null),
  figure(
    "soak.rate",
    "soak: cycles (create + delete) per second",
    Math.round(cyclesPerSecond),
    "cycles/s",
    null,
  ),
];
writeResult("soak.json", {
  benchmark: "soak: creates and deletes on one berthd",
  durationMs: since(started),
  bars,
  details: {
    cycles: CYCLES,
    clients: CLIENTS,
    members: MEMBERS,
    retentionSeconds: RETENTION_S,
    logBound,
    samples,
  },
});
for (const bar of bars) log(`${bar.bar}: ${bar.measured} ${bar.unit}`);
if (failures > 0 || bars.some((bar) => bar.met === false)) process.exitCode = 1;
