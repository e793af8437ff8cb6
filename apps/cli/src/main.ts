#!/usr/bin/env node
import { runCli } from "./cli.js";

// `berth list | head -1`: once the reader has gone, the rest of the output has nowhere to go.
// Stop quietly, as a Unix tool killed by SIGPIPE would, instead of crashing with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
process.exitCode = code;
