import { describe, expect, it } from "vitest";
import { checkSummary, markOf } from "./diagnostics.js";

const SOURCE = "def instance_placement(request, candidate_members):\n    return undefined_name\n";

describe("where the editor marks the server's verdict", () => {
  it("marks the word at the error's line and column", () => {
    const error = { message: "instance_placement:2:12: undefined: undefined_name", line: 2, column: 12 };
    const mark = markOf(SOURCE, { valid: false, error })!;
    expect(SOURCE.slice(mark.from, mark.to)).toBe("undefined_name");
    expect(mark.message).toBe(error.message);
  });

  it("marks one character where no word starts, and the first line without a position", () => {
    const broken = "def instance_placement(request, candidate_members):\n    x = )\n";
    const mark = markOf(broken, { valid: false, error: { message: "m", line: 2, column: 9 } })!;
    expect(broken.slice(mark.from, mark.to)).toBe(")");
    const signature = markOf(SOURCE, {
      valid: false,
      error: { message: "signature", line: null, column: null },
    })!;
    expect(SOURCE.slice(signature.from, signature.to)).toBe("def");
    expect(markOf(SOURCE, { valid: true, error: null })).toBeNull();
  });

  it("keeps a position past the end inside the text", () => {
    const mark = markOf("x = \n", { valid: false, error: { message: "m", line: 9, column: 40 } })!;
    expect(mark.from).toBeLessThanOrEqual(5);
  });

  it("summarises the check under the editor", () => {
    expect(checkSummary(null, SOURCE)).toBe("Checking…");
    expect(checkSummary({ valid: true, error: null }, SOURCE)).toBe("Compiles: the server accepts it.");
    expect(checkSummary({ valid: false, error: { message: "boom", line: 3, column: 1 } }, SOURCE)).toBe(
      "Line 3, column 1: boom",
    );
    expect(
      checkSummary({ valid: false, error: { message: "signature", line: null, column: null } }, SOURCE),
    ).toBe("signature");
    expect(checkSummary(null, "  ")).toMatch(/^Empty: applying it removes the scriptlet/);
  });
});
