import { describe, expect, it } from "vitest";
import { isRecordChanged } from "../../store/record-version.js";
import { checkMemberUpdate, patchMovesFeed } from "./member-update.js";

const member = { generation: 4, joinOrder: 7, config: { "user.a": "1" } };
const reads = { member, groups: new Set(["gpu"]) };

describe("checkMemberUpdate", () => {
  it("moves the generation for traits only, and stores groups and traits once each", () => {
    const traits = checkMemberUpdate("m", { traits: ["X", "X"] }, {}, reads);
    expect([traits.generation, traits.patch.traits]).toEqual([5, ["X"]]);
    const groups = checkMemberUpdate("m", { groups: ["gpu", "gpu"] }, {}, reads);
    expect([groups.generation, groups.patch.groups]).toEqual([4, ["gpu"]]);
  });

  it("adds no feed entry for heartbeats and reported state, one for anything else", () => {
    expect(checkMemberUpdate("m", { lastHeartbeat: "t", state: {} }, {}, reads).entry).toBeUndefined();
    expect(checkMemberUpdate("m", { description: "d" }, {}, reads).entry).toEqual({
      kind: "member",
      name: "m",
      joinOrder: 7,
      change: "updated",
    });
    expect(patchMovesFeed({ lastHeartbeat: "t" })).toBe(false);
  });

  it("refuses a stale generation, unknown groups and fields changed since read", () => {
    expect(() => checkMemberUpdate("m", {}, { generation: 3 }, reads)).toThrow(
      'Cluster member "m" generation conflict: expected 3, current 4',
    );
    expect(() => checkMemberUpdate("m", { groups: ["ssd"] }, {}, reads)).toThrow(
      'Cluster group "ssd" not found',
    );
    let changed: unknown;
    try {
      checkMemberUpdate("m", { config: {} }, { fields: { config: { "user.a": "0" } } }, reads);
    } catch (error) {
      changed = error;
    }
    expect(isRecordChanged(changed)).toBe(true);
    expect(
      checkMemberUpdate("m", { config: {} }, { fields: { config: { "user.a": "1" } } }, reads).patch,
    ).toEqual({
      config: {},
    });
  });
});
