import { describe, expect, it } from "vitest";
import { newInstance, refusal, stored } from "../../testing/claim-rows.fixture.js";
import { checkNames, checkNewIds } from "./identities.js";
import { nameKey } from "./rows.js";

describe("checkNewIds", () => {
  const create = newInstance("x", "a");

  it("passes unused ids", () => {
    expect(() => checkNewIds([create, newInstance("y", "a")], [], new Set())).not.toThrow();
  });

  it("refuses an id a stored instance has, a replaced one has, or another create of the claim has", () => {
    expect(refusal(() => checkNewIds([create], [], new Set([create.id]))).details).toEqual({
      reason: "id_taken",
      id: create.id,
    });
    expect(refusal(() => checkNewIds([create], [{ ...create, name: "r" }], new Set())).details).toMatchObject(
      {
        reason: "id_taken",
      },
    );
    expect(
      refusal(() => checkNewIds([create, { ...create, name: "z" }], [], new Set())).details,
    ).toMatchObject({
      reason: "id_taken",
    });
  });
});

describe("checkNames", () => {
  const holder = stored(newInstance("web", "a"));
  const holders = new Map([[nameKey("default", "web"), holder.id]]);

  it("refuses a name another instance keeps", () => {
    expect(refusal(() => checkNames([newInstance("web", "a")], [], holders)).details).toEqual({
      reason: "name_taken",
      project: "default",
      name: "web",
    });
  });

  it("a name is free in another project, or when its holder is removed or replaced by this claim", () => {
    expect(() => checkNames([newInstance("web", "a", {}, { project: "p" })], [], holders)).not.toThrow();
    expect(() => checkNames([newInstance("web", "a")], [holder], holders)).not.toThrow();
    expect(() => checkNames([{ ...holder }], [holder], holders)).not.toThrow();
  });

  it("refuses the same name twice in one claim, but never clashes unnamed reservations", () => {
    expect(
      refusal(() => checkNames([newInstance("j", "a"), newInstance("j", "b")], [], new Map())).details,
    ).toMatchObject({
      reason: "name_taken",
      name: "j",
    });
    expect(() => checkNames([newInstance("", "a"), newInstance("", "a")], [], new Map())).not.toThrow();
  });
});
