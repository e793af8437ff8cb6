import { describe, expect, it } from "vitest";
import { newInstance, refusal, stored } from "../../testing/claim-rows.fixture.js";
import { currentVersions } from "./revisions.js";

describe("currentVersions", () => {
  const a = stored(newInstance("a", "n1"), 3);
  const b = stored(newInstance("b", "n1"), 1);
  const instances = new Map([
    [a.id, a],
    [b.id, b],
  ]);

  it("returns the current versions to delete, and the replaced ones by id", () => {
    const next = { ...b, description: "edited" };
    const versions = currentVersions(
      { remove: [{ id: a.id, expectedRevision: 3 }], replace: [{ record: next, expectedRevision: 1 }] },
      instances,
    );
    expect(versions.removed).toEqual([a, b]);
    expect([...versions.replaced.keys()]).toEqual([b.id]);
    expect(versions.replacing).toEqual([next]);
  });

  it("a remove without an expected revision takes whatever is there", () => {
    expect(currentVersions({ remove: [{ id: a.id }] }, instances).removed).toEqual([a]);
  });

  it("refuses an instance that is gone", () => {
    const error = refusal(() => currentVersions({ remove: [{ id: "gone" }] }, instances));
    expect(error.details).toEqual({ reason: "instance_missing", id: "gone" });
    const replaced = refusal(() =>
      currentVersions({ replace: [{ record: newInstance("c", "n1"), expectedRevision: 1 }] }, instances),
    );
    expect(replaced.details).toMatchObject({ reason: "instance_missing" });
  });

  it("refuses a stale revision, removes before replaces", () => {
    const error = refusal(() =>
      currentVersions(
        { remove: [{ id: a.id, expectedRevision: 2 }], replace: [{ record: b, expectedRevision: 9 }] },
        instances,
      ),
    );
    expect(error.details).toEqual({ reason: "revision", id: a.id, expected: 2, actual: 3 });
  });
});
