import { execFileSync, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BERTH,
  berth,
  berthInProcess,
  cliEnv,
  MEMBER_STATE_YAML,
  type RunningBerthd,
  runProcess,
  startBerthd,
  writeTemp,
} from "../testing/berth.fixture.js";

/**
 * On a terminal `berth` draws progress and colours; piped, it prints plain
 * text. The terminal is a real pty from util-linux `script`, which plain
 * Debian/Ubuntu images have; without it the test says why it is skipped.
 */
function findScript(): string | undefined {
  try {
    return execFileSync("sh", ["-c", "command -v script"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

const script = findScript();
if (!script) console.warn("terminal test skipped: util-linux `script` (pty) is not installed");

const shellQuote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

let server: RunningBerthd;

beforeAll(async () => {
  server = await startBerthd();
  const run = (...args: string[]) => berthInProcess(server, args);
  await run("config", "set", "cluster.offline_threshold", "86400");
  const state = writeTemp(server, "state.yaml", MEMBER_STATE_YAML);
  const steps = await Promise.all([
    ...["node1", "node2"].map(async (member) => [
      await run("cluster", "add", member, "--arch", "x86_64"),
      await run("cluster", "report", member, "--state", state),
      await run("cluster", "inventory", "set", member, "VCPU", "64"),
      await run("cluster", "inventory", "set", member, "MEMORY_MB", "65536"),
    ]),
    run("flavor", "create", "tiny", "--vcpus", "1", "--memory", "512").then((r) => [r]),
  ]);
  for (const result of steps.flat()) expect(result.stderr).toBe("");
}, 180_000);

afterAll(async () => {
  await server?.stop();
});

/** Runs `berth ARGS` on a pty and returns everything the terminal received. */
async function onTerminal(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; screen: string }> {
  const command = [process.execPath, BERTH, ...args].map(shellQuote).join(" ");
  const result = await runProcess(
    script as string,
    ["-qfec", command, "/dev/null"],
    cliEnv(server, { TERM: "xterm-256color", ...extraEnv }),
  );
  return { code: result.code, screen: result.stdout };
}

const ESC = "\x1b[";
const PROMPT = "Apply these moves? (yes/no) [default=no]: ";

/**
 * Runs `berth ARGS` on a pty and types `answer` once `prompt` is on the screen,
 * as a person would (input sent earlier would race the program's start).
 */
function answerOnTerminal(
  args: string[],
  prompt: string,
  answer: string,
): Promise<{ code: number; screen: string }> {
  const command = [process.execPath, BERTH, ...args].map(shellQuote).join(" ");
  const child = spawn(script as string, ["-qfec", command, "/dev/null"], {
    env: cliEnv(server, { TERM: "xterm-256color" }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  let answered = false;
  child.stdout.on("data", (chunk) => {
    screen += chunk;
    if (!answered && screen.includes(prompt)) {
      answered = true;
      child.stdin.write(`${answer}\n`);
    }
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code: code ?? -1, screen })));
}

describe.skipIf(!script)("on a terminal", { timeout: 180_000 }, () => {
  it("draws the bulk progress line and colours, and a plain summary when piped", async () => {
    const batch = writeTemp(
      server,
      "batch.yaml",
      `${Array.from({ length: 40 }, (_, i) => `- {name: t${i}, flavor: tiny}`).join("\n")}\n`,
    );
    const tty = await onTerminal(["bulk", "create", "-f", batch]);
    expect(tty.code).toBe(0);
    expect(tty.screen).toContain("Placing instances [");
    expect(tty.screen).toContain("\r\x1b[2K");
    expect(tty.screen).toContain(`${ESC}36mnode`); // locations in cyan
    expect(tty.screen).toMatch(/Placed 40 instance\(s\) on 2 member\(s\)/);

    const piped = await berth(server, [
      "bulk",
      "create",
      "-f",
      writeTemp(server, "b2.yaml", "- {name: p1, flavor: tiny}\n"),
    ]);
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toContain("\x1b");
    expect(piped.stdout).not.toContain("\r");
    expect(piped.stdout).not.toContain("Placing instances");
    expect(piped.stdout).toMatch(/Placed 1 instance\(s\) on 1 member\(s\): node\d \(1\)\n$/);
  });

  it("colours usage bars on a terminal, never with NO_COLOR or when piped", async () => {
    const tty = await onTerminal(["cluster", "list"]);
    expect(tty.code).toBe(0);
    expect(tty.screen).toContain(`${ESC}32m`); // green bars: the members are far from full
    expect(tty.screen).toContain(`${ESC}1mNAME`); // bold header

    const noColor = await onTerminal(["cluster", "list"], { NO_COLOR: "1" });
    expect(noColor.code).toBe(0);
    expect(noColor.screen).not.toContain(ESC);
    expect(noColor.screen).toContain("| NAME ");

    const piped = await berth(server, ["cluster", "list"]);
    expect(piped.stdout).not.toContain(ESC);
    expect(piped.stdout).toContain("| NAME ");
  });
  it("shows the rebalance plan and asks before applying it", async () => {
    const crowded = writeTemp(
      server,
      "crowd.yaml",
      `${Array.from({ length: 12 }, (_, i) => `- {name: c${i}, flavor: tiny}`).join("\n")}\n`,
    );
    const crowd = await berth(server, ["bulk", "create", "-f", crowded, "--target", "node1"]);
    expect(crowd.stderr).toBe("");
    expect(crowd.code).toBe(0);
    const declined = await answerOnTerminal(["cluster", "rebalance"], PROMPT, "no");
    expect(declined.screen).toContain(
      `| ${ESC}1mINSTANCE${ESC}22m | ${ESC}1mPROJECT${ESC}22m | ${ESC}1mFROM${ESC}22m`,
    );
    expect(declined.screen).toContain("Error: Aborted: nothing was moved");
    expect(declined.code).toBe(1);
    const accepted = await answerOnTerminal(["cluster", "rebalance"], PROMPT, "yes");
    expect(accepted.screen).toMatch(/Applied \d+ move\(s\)\./);
    expect(accepted.code).toBe(0);
    const after = await berth(server, ["cluster", "rebalance", "--yes"]);
    // Applied: the next plan has fewer moves (or none) than the one shown before.
    const movesIn = (text: string) => Number(/(\d+) move\(s\)/.exec(text)?.[1] ?? 0);
    expect(movesIn(declined.screen)).toBeGreaterThan(0);
    expect(after.code).toBe(0);
    expect(movesIn(after.stdout)).toBeLessThan(movesIn(declined.screen));
  });
});
