import { describe, expect, it } from "vitest";
import type { Target } from "../../expand/request.js";
import { schedulerFilter } from "./scheduler.js";

const member = (mode: string | undefined, groups: string[] = []) => ({
  name: "n1",
  config: (mode === undefined ? {} : { "scheduler.instance": mode }) as Record<string, string>,
  groups,
});
const to = (target: Target) => ({ target });

describe("scheduler.instance filter", () => {
  it("admits members without the key or with `all`, whatever the target", () => {
    for (const mode of [undefined, "all"]) {
      expect(schedulerFilter.reject(member(mode), to(null))).toBeUndefined();
      expect(schedulerFilter.reject(member(mode), to({ kind: "group", name: "g" }))).toBeUndefined();
    }
  });

  it("turns down `manual` members for automatic placement", () => {
    expect(schedulerFilter.reject(member("manual", ["g"]), to({ kind: "group", name: "g" }))).toMatchObject({
      code: "scheduler-manual",
      one: "has scheduler.instance=manual",
    });
  });

  it("admits `group` members only through one of their groups", () => {
    const grouped = member("group", ["g", "h"]);
    expect(schedulerFilter.reject(grouped, to({ kind: "group", name: "h" }))).toBeUndefined();
    for (const target of [null, { kind: "group", name: "other" }] as Target[]) {
      expect(schedulerFilter.reject(grouped, to(target))).toMatchObject({
        code: "scheduler-group",
        one: "takes instances only through one of its groups (scheduler.instance=group)",
        many: "take instances only through one of their groups (scheduler.instance=group)",
      });
    }
  });

  it("admits a member named directly in every mode (LXD: `manual` means only when targeted)", () => {
    for (const mode of ["manual", "group"]) {
      expect(schedulerFilter.reject(member(mode), to({ kind: "member", name: "n1" }))).toBeUndefined();
    }
  });
});
