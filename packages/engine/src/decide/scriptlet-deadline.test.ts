import { describe, expect, it } from "vitest";
import type { ScriptletCall, ScriptletResult, ScriptletRunner } from "../scriptlet/port.js";
import { operationDeadlineMessage, withOperationDeadline } from "./scriptlet-deadline.js";

/** A run that takes `costMs` of the fake clock, or stops at its deadline when that is shorter. */
function ranFor(
  clock: { now: number },
  costMs: number,
  seen: number[],
  call: ScriptletCall,
): ScriptletResult {
  seen.push(call.limits.timeoutMs);
  if (costMs > call.limits.timeoutMs) {
    clock.now += call.limits.timeoutMs;
    return {
      outcome: {
        kind: "rejected",
        message:
          "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: deadline exceeded",
      },
      logs: [],
      cost: { steps: 1, ms: call.limits.timeoutMs },
    };
  }
  clock.now += costMs;
  return { outcome: { kind: "default" }, logs: [], cost: { steps: 1, ms: costMs } };
}

/** A host whose runs take `costMs` (see `ranFor`), answered with a promise (a worker's way) or at once. */
function fakeHost(
  clock: { now: number },
  costMs: number,
  seen: number[],
  answer: "later" | "at once" = "later",
): ScriptletRunner {
  return {
    validate: async () => {},
    close: async () => {},
    run: (_version: number | null, _source: string, call: ScriptletCall) => {
      const result = ranFor(clock, costMs, seen, call);
      return answer === "at once" ? result : Promise.resolve(result);
    },
  };
}

const call = (timeoutMs: number) =>
  ({
    limits: { maxSteps: 1, timeoutMs, maxStringLength: 1, maxCollectionSize: 1, maxAllocBytes: 1 },
  }) as unknown as ScriptletCall;

describe("withOperationDeadline", () => {
  it("gives each run what is left of the operation's time, then refuses further runs", async () => {
    const clock = { now: 1_000 };
    const seen: number[] = [];
    const run = withOperationDeadline(fakeHost(clock, 400, seen), 1_000, () => clock.now);
    expect((await run(1, "", call(5_000))).outcome).toEqual({ kind: "default" });
    expect((await run(1, "", call(5_000))).outcome).toEqual({ kind: "default" });
    // 200 ms left: the run is cut there and the message names the operation's budget.
    expect((await run(1, "", call(5_000))).outcome).toEqual({
      kind: "rejected",
      message: operationDeadlineMessage(1_000),
    });
    expect((await run(1, "", call(5_000))).outcome).toEqual({
      kind: "rejected",
      message: operationDeadlineMessage(1_000),
    });
    expect(seen).toEqual([1_000, 600, 200]);
  });

  it("keeps the run's own deadline and text when that is the shorter one", async () => {
    const clock = { now: 0 };
    const seen: number[] = [];
    const run = withOperationDeadline(fakeHost(clock, 10_000, seen), 60_000, () => clock.now);
    expect((await run(1, "", call(100))).outcome).toEqual({
      kind: "rejected",
      message:
        "Failed instance placement scriptlet: Failed to run: Starlark computation cancelled: deadline exceeded",
    });
    expect(seen).toEqual([100]);
  });
});

describe("withOperationDeadline over a runner that answers at once (the in-process runner)", () => {
  it("answers synchronously, a run cut by the operation's budget still named as such", () => {
    const clock = { now: 0 };
    const seen: number[] = [];
    const run = withOperationDeadline(fakeHost(clock, 700, seen, "at once"), 1_000, () => clock.now);
    const first = run(1, "", call(5_000));
    expect(first).not.toBeInstanceOf(Promise);
    expect((first as ScriptletResult).outcome).toEqual({ kind: "default" });
    // 300 ms left: cut there, and the text names the operation's budget, with no promise either.
    const second = run(1, "", call(5_000));
    expect(second).not.toBeInstanceOf(Promise);
    expect((second as ScriptletResult).outcome).toEqual({
      kind: "rejected",
      message: operationDeadlineMessage(1_000),
    });
    expect(seen).toEqual([1_000, 300]);
  });
});
