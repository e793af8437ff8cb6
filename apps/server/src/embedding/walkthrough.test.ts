/**
 * The README walkthrough must not break the README's test command (#15
 * item 15): the files it writes (`batch.yaml` would fail biome) go to a
 * temporary folder, not the repository.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = realpathSync(fileURLToPath(new URL("../../../../", import.meta.url)));

describe("README walkthrough", () => {
  it("moves to a temporary folder before berthd or berth write any file", () => {
    const readme = readFileSync(`${ROOT}/README.md`, "utf8");
    // The first shell block of the walkthrough's first step.
    const step = readme.slice(readme.indexOf("### 1. Start a server"));
    const block = /```sh\n([\s\S]*?)\n```/.exec(step)?.[1];
    expect(block).toBeDefined();
    const lines = block!.split("\n");
    const firstWriter = lines.findIndex((line) => line.includes("main.js"));
    expect(firstWriter).toBeGreaterThan(0);
    // Run what comes before berthd starts (minus install/build), from the repository root, as a reader would.
    const setup = lines.slice(0, firstWriter).filter((line) => !line.startsWith("npx "));
    const where = execFileSync("bash", ["-c", `${setup.join("\n")}\npwd -P\nrmdir "$PWD"`], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .at(-1)!;
    expect(where.startsWith(ROOT)).toBe(false);
  });
});
