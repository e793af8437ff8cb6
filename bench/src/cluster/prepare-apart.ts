/**
 * A generated cluster file and an admin token for berthd, prepared in a child
 * process. In this process the file would stay open after `close()`: libSQL's
 * native connection lives on while any statement compiled on it does, i.e.
 * until the garbage collector frees them (with a 1M-instance heap, possibly
 * long after berthd has started on the file: a full run saw berthd exit with
 * SQLITE_BUSY at start-up there). A process that has exited holds nothing.
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClusterShape } from "./shape.js";

/** The compiled child (bench/dist/cluster/), found the same from dist/ and, under vitest, from src/. */
const PREPARE_MAIN = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "dist",
  "cluster",
  "prepare-main.js",
);

/** Generates `shape` into `file` (which must not exist) and returns an admin token for it. */
export function prepareClusterFile(file: string, shape: ClusterShape): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [PREPARE_MAIN, file, String(shape.members), String(shape.instances)],
      { encoding: "utf8", maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error !== null) reject(error);
        else resolve((JSON.parse(stdout.trim().split("\n").at(-1)!) as { token: string }).token);
      },
    );
    child.stderr?.pipe(process.stderr);
  });
}
