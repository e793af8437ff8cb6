import { describe, expect, it } from "vitest";
import {
  inventory,
  newInstance,
  provider,
  refusal,
  row,
  rows,
  stored,
} from "../../testing/claim-rows.fixture.js";
import { mirroredInstance } from "../../testing/fixtures.js";
import { foldClaim } from "./batch.js";
import { checkClaim } from "./check-claim.js";
import { failoverChangesOf, withMirrors } from "./mirrors.js";
import type { ProviderRows } from "./rows.js";

/** 8 GiB of memory and 100 GB of disk. */
function member(used: Record<string, number> = {}, failover?: Record<string, number>): ProviderRows {
  return {
    ...provider({ MEMORY_MB: inventory(8192), DISK_GB: inventory(100) }, used),
    ...(failover && { failover }),
  };
}

function cluster(entries: Record<string, ProviderRows>) {
  return rows({ providers: new Map(Object.entries(entries)) });
}

describe("mirrored instances (secondary)", () => {
  it("counts the disk on both members and the memory on the primary only", () => {
    const checked = checkClaim(
      { create: [mirroredInstance("web", "a", "b", { MEMORY_MB: 1024, DISK_GB: 10 })] },
      cluster({ a: member(), b: member() }),
    );
    expect(checked.usage).toEqual([
      { member: "a", used: { MEMORY_MB: 1024, DISK_GB: 10 }, forthcoming: {} },
      { member: "b", used: { DISK_GB: 10 }, forthcoming: {} },
    ]);
    expect(checked.stored[0]!.secondary).toBe("b");
    expect(checked.failoverChanges).toEqual([{ secondary: "b", primary: "a", memory: 1024 }]);
  });

  it("refuses the disk when the secondary lacks room for its mirror", () => {
    const failure = refusal(() =>
      checkClaim(
        { create: [mirroredInstance("web", "a", "b", { MEMORY_MB: 1024, DISK_GB: 10 })] },
        cluster({ a: member(), b: member({ DISK_GB: 95 }) }),
      ),
    );
    expect(failure.details).toMatchObject({ reason: "capacity", member: "b", resourceClass: "DISK_GB" });
  });

  it("N+1: refuses a mirror whose primary's instances the secondary could not take over", () => {
    // b runs 6 GiB and already mirrors 1 GiB for a: 1 more GiB from a fits, 2 do not.
    const b = member({ MEMORY_MB: 6144 }, { a: 1024 });
    const fits = mirroredInstance("one", "a", "b", { MEMORY_MB: 1024, DISK_GB: 1 });
    expect(() => checkClaim({ create: [fits] }, cluster({ a: member(), b }))).not.toThrow();
    const over = mirroredInstance("two", "a", "b", { MEMORY_MB: 2048, DISK_GB: 1 });
    const failure = refusal(() => checkClaim({ create: [over] }, cluster({ a: member(), b })));
    expect(failure.kind).toBe("insufficient_capacity");
    expect(failure.message).toBe(
      'Cluster member "b" could not take over the 3072 MEMORY_MB of the instances it mirrors for "a" (used 6144 of 8192)',
    );
    expect(failure.details).toEqual({
      reason: "failover",
      member: "b",
      primary: "a",
      requested: 3072,
      used: 6144,
      capacity: 8192,
    });
  });

  it("N+1 reserves for one failed primary at a time: the largest, not the sum", () => {
    // b mirrors 3 GiB for a and 3 GiB for c, runs 2 GiB: 2 + max(3, 3) + new 0 on b.
    const b = member({ MEMORY_MB: 2048 }, { a: 3072, c: 3072 });
    const fromD = mirroredInstance("d1", "d", "b", { MEMORY_MB: 3072, DISK_GB: 1 });
    expect(() => checkClaim({ create: [fromD] }, cluster({ b, d: member() }))).not.toThrow();
    const largerFromD = mirroredInstance("d2", "d", "b", { MEMORY_MB: 6400, DISK_GB: 1 });
    expect(
      refusal(() => checkClaim({ create: [largerFromD] }, cluster({ b, d: member() }))).details,
    ).toMatchObject({
      reason: "failover",
      primary: "d",
      requested: 6400,
    });
  });

  it("N+1 on the secondary's own primaries: memory started on a member eats its reserve", () => {
    const b = member({ MEMORY_MB: 4096 }, { a: 3072 });
    expect(() =>
      checkClaim({ create: [newInstance("small", "b", { MEMORY_MB: 1024 })] }, cluster({ b })),
    ).not.toThrow();
    const failure = refusal(() =>
      checkClaim({ create: [newInstance("big", "b", { MEMORY_MB: 1025 })] }, cluster({ b })),
    );
    expect(failure.details).toMatchObject({ reason: "failover", member: "b", primary: "a", used: 5121 });
  });

  it("never refuses a claim that shrinks the sum, even on a member already short", () => {
    const mirrored = stored(mirroredInstance("old", "a", "b", { MEMORY_MB: 4096, DISK_GB: 1 }));
    const b = member({ MEMORY_MB: 6144, DISK_GB: 1 }, { a: 4096 });
    const a = member({ MEMORY_MB: 4096, DISK_GB: 1 });
    const removal = checkClaim(
      { remove: [{ id: mirrored.id }] },
      rows({
        instances: new Map([[mirrored.id, mirrored]]),
        providers: new Map([
          ["a", a],
          ["b", b],
        ]),
      }),
    );
    expect(removal.failoverChanges).toEqual([{ secondary: "b", primary: "a", memory: -4096 }]);
  });

  it("a failover (primary and secondary swapped) moves the memory and the reserve with it", () => {
    const before = stored(mirroredInstance("web", "a", "b", { MEMORY_MB: 2048, DISK_GB: 5 }));
    const { revision: _, ...rest } = before;
    const swapped = {
      ...rest,
      location: "b",
      secondary: "a",
      allocations: withMirrors([row("b", "MEMORY_MB", 2048), row("b", "DISK_GB", 5)], "b", "a"),
    };
    const checked = checkClaim(
      { replace: [{ record: swapped, expectedRevision: 1 }] },
      rows({
        instances: new Map([[before.id, before]]),
        providers: new Map([
          ["a", member({ MEMORY_MB: 2048, DISK_GB: 5 })],
          ["b", member({ DISK_GB: 5 }, { a: 2048 })],
        ]),
      }),
    );
    expect(checked.usage).toEqual([
      { member: "a", used: { DISK_GB: 5 }, forthcoming: {} },
      { member: "b", used: { MEMORY_MB: 2048, DISK_GB: 5 }, forthcoming: {} },
    ]);
    expect(checked.failoverChanges).toEqual(
      expect.arrayContaining([
        { secondary: "b", primary: "a", memory: -2048 },
        { secondary: "a", primary: "b", memory: 2048 },
      ]),
    );
  });

  it("refuses a secondary that is its location, is gone, or holds what it does not mirror", () => {
    const same = mirroredInstance("web", "a", "a", { MEMORY_MB: 1, DISK_GB: 1 });
    expect(refusal(() => checkClaim({ create: [same] }, cluster({ a: member() }))).message).toBe(
      'Instance "web": its secondary must be another member than its location "a"',
    );
    const gone = mirroredInstance("web", "a", "z", { MEMORY_MB: 1, DISK_GB: 1 });
    expect(refusal(() => checkClaim({ create: [gone] }, cluster({ a: member() }))).details).toEqual({
      reason: "member_missing",
      member: "z",
    });
    const memoryOnSecondary = {
      ...newInstance("web", "a", { MEMORY_MB: 1, DISK_GB: 1 }),
      secondary: "b",
      allocations: [
        row("a", "MEMORY_MB", 1),
        row("a", "DISK_GB", 1),
        row("b", "DISK_GB", 1),
        row("b", "MEMORY_MB", 1),
      ],
    };
    const failure = refusal(() =>
      checkClaim({ create: [memoryOnSecondary] }, cluster({ a: member(), b: member() })),
    );
    expect(failure.kind).toBe("invalid");
    expect(failure.message).toBe(
      'Instance "web": its 1 MEMORY_MB on secondary "b" mirrors nothing on its location "a"',
    );
    const unmirrored = { ...newInstance("web", "a", { MEMORY_MB: 1, DISK_GB: 3 }), secondary: "b" };
    expect(
      refusal(() => checkClaim({ create: [unmirrored] }, cluster({ a: member(), b: member() }))).message,
    ).toBe('Instance "web": its 3 DISK_GB on "a" is not mirrored on its secondary "b"');
  });

  it("a group commit sees the reserve of the claims accepted before it", () => {
    const shared = cluster({ a: member(), b: member({ MEMORY_MB: 4096 }) });
    const first = checkClaim(
      { create: [mirroredInstance("one", "a", "b", { MEMORY_MB: 3072, DISK_GB: 1 })] },
      shared,
    );
    foldClaim(shared, first);
    expect(shared.providers.get("b")!.failover).toEqual({ a: 3072 });
    const second = mirroredInstance("two", "a", "b", { MEMORY_MB: 2048, DISK_GB: 1 });
    expect(refusal(() => checkClaim({ create: [second] }, shared)).details).toMatchObject({
      reason: "failover",
      requested: 5120,
    });
  });

  it("failoverChangesOf sums per (secondary, primary) and drops what cancels out", () => {
    const one = mirroredInstance("one", "a", "b", { MEMORY_MB: 512 });
    const two = mirroredInstance("two", "a", "b", { MEMORY_MB: 256 });
    expect(failoverChangesOf([one], [one, two])).toEqual([{ secondary: "b", primary: "a", memory: 256 }]);
    expect(failoverChangesOf([one], [one])).toEqual([]);
  });
});
