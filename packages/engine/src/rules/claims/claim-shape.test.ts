import { describe, expect, it } from "vitest";
import type { Claim } from "../../store/port.js";
import { claimOfOneShape } from "./claim-shape.js";

const FIELDS = ["create", "replace", "remove", "projectLimits", "memberStates", "token"];

describe("claimOfOneShape", () => {
  it("gives a sparse claim and a full one the same fields, in the same order", () => {
    const sparse: Claim = { token: "t1" };
    const full: Claim = {
      token: "t2",
      memberStates: [{ member: "m1", evacuated: true }],
      remove: [{ id: "a", expectedRevision: 1 }],
      replace: [],
      create: [],
      projectLimits: {},
    };
    expect(Object.keys(claimOfOneShape(sparse))).toEqual(FIELDS);
    expect(Object.keys(claimOfOneShape(full))).toEqual(FIELDS);
  });

  it("keeps every value the claim had (the same objects) and leaves absent ones undefined", () => {
    const create: Claim["create"] = [];
    const memberStates = [{ member: "m1", evacuated: false }];
    const shaped = claimOfOneShape({ create, memberStates });
    expect(shaped.create).toBe(create);
    expect(shaped.memberStates).toBe(memberStates);
    expect(shaped.token).toBeUndefined();
    expect(shaped.remove).toBeUndefined();
  });
});
