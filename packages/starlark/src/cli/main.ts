#!/usr/bin/env -S node --max-semi-space-size=64
/**
 * The `starlark` command, after the newest go.starlark.net's cmd/starlark:
 *   starlark [-recursion] [-globalreassign] [-while] [-toplevelcontrol] [-legacy] FILE
 *   starlark [flags] -c PROGRAM
 * print() output goes to stdout; errors (with a Starlark backtrace) go to stderr, exit status 1.
 *
 * The shebang gives V8 a 64 MiB young generation (semi-space; Node's default is 16 MiB):
 * Starlark programs allocate many short-lived values, and with the default most of a
 * dict-building program's time went to scavenges (placement.star: ~180 -> ~100 ms CPU).
 * The bench reads these flags from this line, so what it measures is what ships.
 *
 * The package's bin is not this file but dist/cli/starlark.cjs, this module and everything it
 * imports in one CommonJS file (scripts/bundle-cli.mjs): loading ~90 ES modules took ~60 ms of
 * every run's start-up, the one file ~10 ms.
 *
 * With -recursion the program runs on a worker thread with a 64 MiB stack: each Starlark call
 * takes a few hundred bytes of JS stack, so Node's default (under 1 MiB) allows ~1,500 nested
 * calls, while upstream stops runaway recursion at 100,000. The worker runs this same file
 * (which takes the worker's part below) and costs ~40 ms of start-up, so programs without
 * recursion run on the main thread.
 */
import { realpathSync } from "node:fs";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";
import { runCli } from "./run.js";

/** What the worker sends the main thread. */
type WorkerMessage =
  | { kind: "stdout"; text: string }
  | { kind: "stderr"; text: string }
  | { kind: "exit"; status: number };

if (isMainThread) {
  const argv = process.argv.slice(2);
  const stdout = (bytes: string) => process.stdout.write(Buffer.from(bytes, "latin1"));
  const stderr = (s: string) => process.stderr.write(s);
  if (argv.some((a) => a === "-recursion" || a === "--recursion")) {
    // This file, whichever form of it runs (the bundle or the ES module), by its real path.
    const self = realpathSync(process.argv[1] as string);
    const worker = new Worker(self, { workerData: argv, resourceLimits: { stackSizeMb: 64 } });
    worker.on("message", (m: WorkerMessage) => {
      if (m.kind === "stdout") stdout(m.text);
      else if (m.kind === "stderr") stderr(m.text);
      else process.exitCode = m.status;
    });
    worker.on("error", (e) => {
      stderr(`starlark: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    });
  } else {
    process.exitCode = runCli(argv, { stdout, stderr });
  }
} else if (parentPort !== null) {
  const port = parentPort;
  const send = (m: WorkerMessage) => port.postMessage(m);
  const status = runCli(workerData as string[], {
    stdout: (text) => send({ kind: "stdout", text }),
    stderr: (text) => send({ kind: "stderr", text }),
  });
  send({ kind: "exit", status });
}
