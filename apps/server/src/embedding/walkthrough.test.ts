/**
 * The walkthrough (docs/operators/first-cluster.md) must not break the
 * test command: the files it writes (`batch.yaml` would fail biome) go to a
 * temporary folder, not the repository. And it runs the repository's
 * wrappers as built by the install command, without building again.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = realpathSync(fileURLToPath(new URL("../../../../", import.meta.url)));
const WALKTHROUGH = `${ROOT}/docs/operators/first-cluster.md`;

/** The first shell block of the walkthrough's first step. */
function firstStepBlock(): string[] {
  const text = readFileSync(WALKTHROUGH, "utf8");
  const step = text.slice(text.indexOf("## 1. Start a server"));
  const block = /```sh\n([\s\S]*?)\n```/.exec(step)?.[1];
  expect(block).toBeDefined();
  return block!.split("\n");
}

describe("the walkthrough's first step", () => {
  it("moves to a temporary folder before berthd or berth write any file", () => {
    const lines = firstStepBlock();
    const firstWriter = lines.findIndex((line) => /^berthd?\b/.test(line));
    expect(firstWriter).toBeGreaterThan(0);
    // Run what comes before berthd starts, from the repository root, as a reader would.
    const setup = lines.slice(0, firstWriter);
    const output = execFileSync(
      "bash",
      ["-c", `${setup.join("\n")}\ncommand -v berthd\ncommand -v berth\npwd -P\nrmdir "$PWD"`],
      { cwd: ROOT, encoding: "utf8" },
    )
      .trim()
      .split("\n");
    // berth and berthd are the repository's wrappers; the folder is not inside the repository.
    expect(output.slice(-3, -1)).toEqual([`${ROOT}/berthd`, `${ROOT}/berth`]);
    expect(output.at(-1)!.startsWith(ROOT)).toBe(false);
  });

  it("builds nothing: the install command's build is what it runs", () => {
    expect(
      firstStepBlock().filter((line) => /\b(build|install)\b/.test(line) && !line.startsWith("#")),
    ).toEqual([]);
  });
});
