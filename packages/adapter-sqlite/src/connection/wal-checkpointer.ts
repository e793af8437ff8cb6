import { createRequire } from "node:module";
import { type MessagePort, Worker } from "node:worker_threads";
import type Database from "libsql";

/**
 * WAL checkpoints on a thread of their own. SQLite's automatic checkpoint
 * runs inside the COMMIT that takes the WAL past 1,000 pages, on the calling
 * thread, the event loop's: it copies ~4 MB into the database file and
 * fsyncs both files. Under 16 connections of sustained creates, COMMITs
 * over 1 ms held the event loop 1.9-2.9 s of every 10 s (2026-11-29). Here a
 * worker with its own connection checkpoints instead, and the process's
 * connection runs with `wal_autocheckpoint = 0`: 59-83 against 202-299 µs
 * of COMMIT and 0.39-0.53 against 0.52-0.62 ms of main-thread CPU per
 * sustained create, ~40 % more creates per second (five alternated pairs;
 * docs/performance/http-and-placement-api.md).
 *
 * Durability is unchanged: a checkpoint only copies committed pages from
 * the WAL into the database file, on any connection; `PRAGMA data_version`
 * does not move for it.
 */
export class WalCheckpointer {
  /** [commits signalled, stop requested, quiet asked/granted]: shared with the worker, which sleeps on them. */
  readonly #signal = new Int32Array(new SharedArrayBuffer(12));
  readonly #worker: Worker;
  readonly #exited: Promise<unknown>;

  /** `failed` runs if the worker cannot run: the caller turns the automatic checkpoint back on. */
  constructor(file: string, failed: () => void) {
    const data: CheckpointerData = {
      driver: createRequire(import.meta.url).resolve("libsql"),
      file,
      signal: this.#signal,
      coalesceMs: COALESCE_MS,
      restartPages: RESTART_PAGES,
      quietWaitMs: QUIET_WAIT_MS,
    };
    // Run from its source text: the same code under vitest (TypeScript) and from dist/.
    this.#worker = new Worker(
      `const { workerData, parentPort } = require("node:worker_threads");
       (${checkpointLoop.toString()})(require, workerData, parentPort)`,
      { eval: true, workerData: data },
    );
    // Not `events.once`: it would reject on the worker's error, which `failed` handles.
    this.#exited = new Promise((resolve) => this.#worker.once("exit", resolve));
    this.#worker.once("error", failed);
    // A process that forgets to close its store may still exit; its WAL stays, as after a crash.
    this.#worker.unref();
  }

  /**
   * After each commit: a futex wake when the worker sleeps, nothing more on
   * this thread. True when the worker asks for `quiet()`.
   */
  committed(): boolean {
    const commits = Atomics.add(this.#signal, COMMITS, 1) + 1;
    Atomics.notify(this.#signal, COMMITS);
    // Ends the worker's wait for more commits early (it sleeps on the STOP slot meanwhile).
    if (commits % COMMITS_PER_CHECKPOINT === 0) Atomics.notify(this.#signal, STOP);
    return Atomics.load(this.#signal, QUIET) === ASKED;
  }

  /**
   * Lets the worker checkpoint the whole WAL while this process runs no SQL
   * (the caller holds the connection's lock meanwhile; the event loop is
   * free), so the next commit starts the WAL over (RESTART_PAGES).
   */
  async quiet(): Promise<void> {
    if (Atomics.compareExchange(this.#signal, QUIET, ASKED, GRANTED) !== ASKED) return;
    Atomics.notify(this.#signal, QUIET);
    await Promise.race([new Promise((resolve) => this.#worker.once("message", resolve)), this.#exited]);
  }

  /** Ends the worker; its connection's close checkpoints the rest and, if it is the file's last, removes the WAL. */
  async stop(): Promise<void> {
    // Waiting for its exit must keep the process alive (it was unref'd).
    this.#worker.ref();
    Atomics.store(this.#signal, STOP, 1);
    Atomics.notify(this.#signal, STOP);
    Atomics.notify(this.#signal, QUIET);
    this.committed();
    await this.#exited;
  }
}

const COMMITS = 0;
const STOP = 1;
const QUIET = 2;
const ASKED = 1;
const GRANTED = 2;
/**
 * Commits within this long after the first one share a checkpoint, or
 * fewer when COMMITS_PER_CHECKPOINT came first. Checkpointing every 100 ms
 * made a lone create slower (1.6-1.8 against 1.1-1.6 ms wall p50, three
 * alternated pairs): the commit after each checkpoint rewrites the WAL from
 * its start, in pages the checkpoint's fsync may still hold. Once a second,
 * lone creates were as fast as before (1.19 against 1.18-1.28 ms) and a
 * page that many commits rewrote is copied once.
 */
const COALESCE_MS = 1000;
/** About 4-30 MiB of WAL (a lone create's commit writes ~90 KiB, a small row's a few KiB). */
const COMMITS_PER_CHECKPOINT = 1024;
/**
 * A PASSIVE checkpoint never waits for the writer, and the WAL is only
 * rewritten from its start by a commit that begins once a checkpoint has
 * copied all of it: under steady commits, that seldom happens by chance
 * (the WAL reached 300-575 MB in 10 s of 16 connections). With a second
 * between checkpoints, the WAL peaks at this bound plus about a second of
 * commits (86-110 MiB at 1,500-1,750 creates/s). RESTART would hold
 * writers back with SQLite's busy wait, which sleeps on the event loop.
 * Past this size (16 MiB of 4 KiB pages), the worker asks for `quiet()`
 * instead, and the connection grants it after its next commit.
 */
const RESTART_PAGES = 4096;
/** How long the worker waits for a commit to grant its request (none may come: then the WAL is not growing). */
const QUIET_WAIT_MS = 1000;

interface CheckpointerData {
  driver: string;
  file: string;
  signal: Int32Array;
  coalesceMs: number;
  restartPages: number;
  quietWaitMs: number;
}

/**
 * The worker's program. It runs from its source text, so it uses nothing but
 * its arguments. It sleeps until a commit is signalled, lets the commits of
 * the next `coalesceMs` join, and checkpoints. A failed checkpoint (the file
 * busy in another process, a full disk) leaves the frames in the WAL; the
 * next commit tries again.
 */
function checkpointLoop(load: NodeJS.Require, data: CheckpointerData, port: MessagePort): void {
  const { signal } = data;
  const Driver = load(data.driver) as typeof Database;
  const db = new Driver(data.file);
  let seen = 0;
  // Slots 0, 1, 2: COMMITS, STOP, QUIET (1 asked, 2 granted); this text cannot see the module's constants.
  while (Atomics.load(signal, 1) === 0) {
    Atomics.wait(signal, 0, seen);
    Atomics.wait(signal, 1, 0, data.coalesceMs);
    seen = Atomics.load(signal, 0);
    try {
      // Prepared here, where a busy file (its schema being read) only skips this turn. No function
      // is defined in here: esbuild (vitest, tsx) would wrap it in a helper this text lacks.
      const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
      // A read first: a connection opened before the file was switched to WAL learns it here.
      db.prepare("SELECT 1 FROM sqlite_schema LIMIT 1").get();
      if (((checkpoint.get() as { log: number } | undefined)?.log ?? 0) >= data.restartPages) {
        Atomics.store(signal, 2, 1);
        Atomics.wait(signal, 2, 1, data.quietWaitMs);
        if (Atomics.compareExchange(signal, 2, 1, 0) === 2) {
          try {
            checkpoint.get();
          } finally {
            Atomics.store(signal, 2, 0);
            port.postMessage(0);
          }
        }
      }
    } catch {
      // Retried after the next commit; the WAL keeps every frame meanwhile.
    }
  }
  db.close();
}
