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
 */
import { runCli } from "./run.js";

process.exitCode = runCli(process.argv.slice(2), {
  stdout: (bytes) => process.stdout.write(Buffer.from(bytes, "latin1")),
  stderr: (s) => process.stderr.write(s),
});
