#!/usr/bin/env node
/**
 * The `starlark` command, after go.starlark.net's cmd/starlark:
 *   starlark [-set] [-recursion] [-globalreassign] [-while] [-toplevelcontrol] FILE
 *   starlark [flags] -c PROGRAM
 * print() output goes to stdout; errors (with a Starlark backtrace) go to stderr, exit status 1.
 */
import { runCli } from "./run.js";

process.exitCode = runCli(process.argv.slice(2), {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
});
