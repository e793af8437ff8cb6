/**
 * `berth-iallocator FILE`: what Ganeti runs (from its iallocator search
 * path, with the input file's path as the one argument; `-` reads stdin).
 * The answer goes to stdout and the exit status is 0 whenever there is an
 * answer, failed requests included; only a missing or unreadable file
 * exits non-zero, as Ganeti then shows the output to the operator.
 */
import { readFileSync } from "node:fs";
import { iallocate } from "./iallocate.js";

/** Runs one call on the command line's arguments; resolves to the exit status. */
export async function main(argv: readonly string[]): Promise<number> {
  const path = argv[0];
  if (path === undefined || argv.length !== 1) {
    process.stderr.write("usage: berth-iallocator INPUT-FILE (or - for stdin)\n");
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(path === "-" ? 0 : path, "utf8");
  } catch (error) {
    process.stderr.write(`berth-iallocator: cannot read ${path}: ${(error as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`${JSON.stringify(await iallocate(text))}\n`);
  return 0;
}
