import { describe, expect, it } from "vitest";
import { LimitError, Thread } from "./index.js";

function limitKind(fn: () => void): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(LimitError);
    return (e as LimitError).kind;
  }
  return undefined;
}

describe("Thread limits", () => {
  it("counts steps and stops at maxSteps", () => {
    const t = new Thread({ limits: { maxSteps: 10 } });
    t.checkStep(10);
    expect(limitKind(() => t.checkStep())).toBe("steps");
  });
  it("stops on an aborted signal and on a passed deadline", () => {
    const ac = new AbortController();
    const t = new Thread({ limits: { signal: ac.signal } });
    t.checkCancelled();
    ac.abort();
    expect(limitKind(() => t.checkCancelled())).toBe("aborted");
    const late = new Thread({ limits: { deadline: Date.now() - 1 } });
    expect(limitKind(() => late.checkStep(2048))).toBe("deadline");
  });
  it("checks sizes and keeps thread locals", () => {
    const t = new Thread({ limits: { maxStringLength: 5, maxCollectionSize: 2 } });
    expect(limitKind(() => t.checkStringLength(6))).toBe("size");
    expect(limitKind(() => t.checkSize("collection", 3))).toBe("size");
    t.checkSize("string", 5);
    t.setLocal("k", 1);
    expect(t.getLocal("k")).toBe(1);
  });
  it("formats a go-style backtrace", () => {
    const e = new LimitError("steps", "too many");
    e.frames = [{ name: "<toplevel>", pos: { filename: "a.star", line: 3, col: 1 } }];
    expect(e.backtrace()).toBe(
      "Traceback (most recent call last):\n  a.star:3:1: in <toplevel>\nError: too many",
    );
  });
});
