/**
 * The root README's "Try it", run as a newcomer runs it: every `sh` block
 * and every `$ ` command of its `console` blocks, in order, in one shell at
 * the repository's root, against a real berthd started with `--demo` (as
 * `pnpm start` starts it, on a temporary database and socket). Each
 * command's output must be the README's, once what differs on every run
 * (UUIDs, scratch paths, milliseconds) is masked.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningDaemon, startDaemon } from "../testing/daemon.fixture.js";

const run = promisify(execFile);
const ROOT = realpathSync(fileURLToPath(new URL("../../../../", import.meta.url)));

interface Step {
  command: string;
  /** The README's output of a `console` command; undefined for `sh` blocks (output not shown). */
  expected: string[] | undefined;
}

/** The section of the README between a heading and the next one of its level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  expect(start, `no "## ${heading}" in README.md`).toBeGreaterThan(-1);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/** A `$ ` command with its here-document, if it opens one (`<<'EOF'` up to `EOF`). */
function commandAt(lines: string[], index: number): { command: string; next: number } {
  const first = lines[index]!.slice(2);
  const heredoc = /<<'(\w+)'/.exec(first)?.[1];
  if (heredoc === undefined) return { command: first, next: index + 1 };
  const end = lines.indexOf(heredoc, index + 1);
  return {
    command: lines
      .slice(index, end + 1)
      .join("\n")
      .slice(2),
    next: end + 1,
  };
}

export function stepsOf(readme: string): Step[] {
  const steps: Step[] = [];
  for (const [, kind, body] of section(readme, "Try it").matchAll(/```(sh|console)\n([\s\S]*?)\n```/g)) {
    if (kind === "sh") {
      steps.push({ command: body!, expected: undefined });
      continue;
    }
    const lines = body!.split("\n");
    let index = 0;
    while (index < lines.length) {
      const { command, next } = commandAt(lines, index);
      let end = next;
      while (end < lines.length && !lines[end]!.startsWith("$ ")) end++;
      steps.push({ command, expected: lines.slice(next, end) });
      index = end;
    }
  }
  return steps;
}

/** What differs from run to run: UUIDs and their 8-digit prefixes, scratch folders, timings. */
function masked(line: string): string {
  return line
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "UUID")
    .replace(/\| [0-9a-f]{8} \|/g, "| UUID8 |")
    .replace(/\/tmp\/[^/\s]+\//g, "/tmp/SCRATCH/")
    .replace(/[\d.]+ ms/g, "N ms")
    .replace(/berth_[\w-]+/g, "berth_TOKEN");
}

describe("the root README's Try it, run as written", () => {
  const dir = mkdtempSync(join(tmpdir(), "berth-try-it-"));
  const db = join(dir, "berth.db");
  const socket = join(dir, "berth.sock");
  const env = { ...process.env, BERTH_SOCKET: socket, BERTH_DB: db, NO_COLOR: "1" };
  let server: RunningDaemon;

  beforeAll(async () => {
    server = await startDaemon(
      ["--listen", "127.0.0.1:0", "--state-dir", "none", "--demo", "--log-file", join(dir, "berthd.log")],
      env,
    );
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("every command succeeds or fails as shown, with the README's output", async () => {
    const steps = stepsOf(readFileSync(join(ROOT, "README.md"), "utf8"));
    expect(steps.length).toBeGreaterThan(8);
    // One shell, so `T=$(mktemp -d)` carries over; a marker line before each step's output.
    // `sh` blocks show no output, but must succeed: their status is the output's last line.
    const script = steps
      .map(
        (step, i) =>
          `echo "@@step ${i}"\n${step.command}\n${step.expected === undefined ? 'echo "@@rc $?"\n' : ""}`,
      )
      .join("");
    const { stdout } = await run("bash", ["-c", `exec 2>&1\n${script}\nrm -rf "$T"`], {
      cwd: ROOT,
      env,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout: string }) => error);
    const outputs = stdout.split(/^@@step \d+\n/m).slice(1);
    expect(outputs).toHaveLength(steps.length);
    steps.forEach((step, i) => {
      if (step.expected === undefined) {
        expect(
          outputs[i]!.trimEnd().split("\n").at(-1),
          `README.md, Try it:\n${step.command}\n${outputs[i]}`,
        ).toBe("@@rc 0");
        return;
      }
      const got = outputs[i]!.replace(/\n$/, "")
        .split("\n")
        .filter((line) => line !== "");
      expect(got.map(masked), `README.md, Try it: $ ${step.command.split("\n")[0]}`).toEqual(
        step.expected.map(masked),
      );
    });
  }, 120_000);
});
