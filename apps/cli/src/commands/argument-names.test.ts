import { Command } from "commander";
import { describe, expect, it } from "vitest";
import {
  argumentNames,
  completeArguments,
  groupNames,
  instanceNames,
  memberNames,
} from "./argument-names.js";

describe("argument names for completion", () => {
  it("maps each declared position to its source and leaves free-text positions empty", () => {
    const rename = completeArguments(
      new Command("rename").argument("<member>").argument("<new-name>"),
      memberNames,
      undefined,
    );
    expect(argumentNames(rename, 0)?.source).toBe(memberNames);
    expect(argumentNames(rename, 1)).toBeUndefined();
    expect(argumentNames(rename, 2)).toBeUndefined();
  });

  it("repeats the last source for a variadic last argument only", () => {
    const del = completeArguments(new Command("delete").argument("<name...>"), instanceNames);
    expect(argumentNames(del, 0)?.source).toBe(instanceNames);
    expect(argumentNames(del, 3)?.source).toBe(instanceNames);
    const create = completeArguments(
      new Command("create").argument("<group>").argument("[members...]"),
      undefined,
      memberNames,
    );
    expect(argumentNames(create, 0)).toBeUndefined();
    expect(argumentNames(create, 4)?.source).toBe(memberNames);
    const show = completeArguments(new Command("show").argument("<group>"), groupNames);
    expect(argumentNames(show, 1)).toBeUndefined();
  });

  it("keeps the comma-list flag and knows nothing of undeclared commands", () => {
    const assign = completeArguments(
      new Command("assign").argument("<member>").argument("<groups>"),
      memberNames,
      { source: groupNames, commaList: true },
    );
    expect(argumentNames(assign, 1)).toEqual({ source: groupNames, commaList: true });
    expect(argumentNames(new Command("list"), 0)).toBeUndefined();
  });
});
