import { describe, expect, it } from "vitest";
import { clusterOf, node, spec } from "../testing/snapshot.fixture.js";
import { placeInstance, searchPlacement } from "./allocate.js";
import { placeBatch } from "./batch.js";
import { groupSurvivesAnyFailure } from "./redundancy.js";

describe("one instance on a handed-in cluster", () => {
  it("puts a mirrored instance on two members of one group, never one member twice", () => {
    const cluster = clusterOf([node("a", "g1", 7000), node("b", "g1", 7000), node("z", "g2", 7000)]);
    const search = placeInstance(cluster, spec("db", "drbd", 2048));
    expect([...search.chosen!.choice.nodes].sort()).toEqual(["a", "b"]);
    const [primary, secondary] = search.chosen!.choice.nodes;
    expect(cluster.nodes.get(primary!)!.freeMemory).toBe(7000 - 2048);
    // The secondary pays disk and keeps memory for the takeover, but runs nothing.
    expect(cluster.nodes.get(secondary!)!.freeMemory).toBe(7000);
    expect(cluster.nodes.get(secondary!)!.freeDisk).toBe(100_000 - 1024);
    expect(cluster.nodes.get(secondary!)!.reservedMemory).toBe(2048);
  });

  it("refuses a secondary that could not take over everything of that primary (N+1)", () => {
    const cluster = clusterOf([node("a", "g1", 7000), node("b", "g1", 3000)]);
    cluster.addExisting(spec("old", "drbd", 2500), ["a", "b"]);
    // b mirrors 2500 MiB of a: 1024 more from a would need 3524 > 3000 free; b as primary would eat its reserve.
    const refused = searchPlacement(cluster, spec("db", "drbd", 1024));
    expect(refused.chosen).toBeUndefined();
    expect(refused.attempts[0]!.failures.get("FailMem")).toBe(2);
    // A secondary for another primary only reserves the largest primary's share.
    const roomier = clusterOf([node("a", "g1", 7000), node("b", "g1", 3000), node("c", "g1", 7000)]);
    roomier.addExisting(spec("old", "drbd", 2500), ["a", "b"]);
    const placed = placeInstance(roomier, spec("db", "drbd", 1024)).chosen!.choice.nodes;
    expect(placed).not.toEqual(["a", "b"]);
  });

  it("refuses a member whose failover reserve the new primary would eat into", () => {
    const cluster = clusterOf([node("a", "g1", 7000), node("b", "g1", 3000), node("c", "g1", 7000)]);
    cluster.addExisting(spec("old", "drbd", 2500), ["a", "b"]);
    const search = searchPlacement(cluster, spec("web", "file", 1000));
    const refused = search.attempts[0]!.failures;
    // b keeps 2500 for a: 3000 - 1000 < 2500.
    expect(refused.get("FailMem")).toBe(1);
    expect(search.chosen!.choice.nodes).not.toContain("b");
  });

  it("checks the policy per disk and by template, and counts every member refused", () => {
    const cluster = clusterOf([node("a", "g1", 7000), node("b", "g1", 7000)]);
    const twoSmall = spec("x", "file", 512, {
      disks: [
        { size: 64, spindles: 1 },
        { size: 64, spindles: 1 },
      ],
    });
    expect(searchPlacement(cluster, twoSmall, { group: "one" }).attempts[0]!.failures.get("FailDisk")).toBe(
      2,
    );
  });

  it("never places two primaries with one exclusion tag on a member", () => {
    const cluster = clusterOf([node("a", "g1", 7000), node("b", "g1", 2000)], { exclusion: ["svc"] });
    cluster.addExisting(spec("dns1", "file", 512, { tags: ["svc:dns"] }), ["a"]);
    expect(
      placeInstance(cluster, spec("dns2", "file", 512, { tags: ["svc:dns"] })).chosen!.choice.nodes,
    ).toEqual(["b"]);
    expect(placeInstance(cluster, spec("dns3", "file", 512, { tags: ["svc:dns"] })).chosen).toBeUndefined();
  });

  it("uses a last-resort group only when no preferred one fits, and no unconnected one", () => {
    const cluster = clusterOf([
      node("a", "g1", 1500),
      node("b", "g1", 1500),
      node("z", "g2", 7000),
      node("y", "g2", 7000),
    ]);
    expect(searchPlacement(cluster, spec("s", "file", 256)).chosen!.group.name).toBe("one");
    expect(searchPlacement(cluster, spec("l", "file", 2048)).chosen!.group.name).toBe("two");
    const unconnected = searchPlacement(cluster, spec("n", "file", 256, { networks: ["net-x"] }));
    expect(unconnected.chosen).toBeUndefined();
    expect(unconnected.attempts.map((a) => a.unconnected)).toEqual([true, true]);
  });

  it("keeps every member of the group able to fail (non-mirrored instances re-created elsewhere)", () => {
    const lonely = clusterOf([node("a", "g1", 7000)]);
    const search = searchPlacement(lonely, spec("p", "plain", 1024));
    expect(search.chosen).toBeUndefined();
    expect(search.attempts[0]!.failures.get("FailN1")).toBe(1);
    const pair = clusterOf([node("a", "g1", 7000), node("b", "g1", 7000)]);
    placeInstance(pair, spec("p1", "plain", 4000));
    expect(groupSurvivesAnyFailure(pair, "g1")).toBe(true);
    // A second 4000 MiB instance on either member leaves no room to re-create the other's.
    expect(placeInstance(pair, spec("p2", "plain", 4000)).chosen).toBeUndefined();
  });
});

describe("a batch", () => {
  it("places largest first, answers in request order, and undoes everything when all-or-nothing fails", () => {
    const cluster = clusterOf([node("a", "g1", 7000), node("b", "g1", 7000), node("c", "g1", 7000)]);
    const specs = [spec("s1", "file", 512), spec("big", "drbd", 4096), spec("huge", "file", 16000)];
    const before = [...cluster.nodes.values()].map((n) => [n.freeMemory, n.freeDisk, n.reservedMemory]);
    const failed = placeBatch(cluster, specs, { allOrNothing: true });
    expect(failed.blockedBy!.spec.name).toBe("huge");
    expect([...cluster.nodes.values()].map((n) => [n.freeMemory, n.freeDisk, n.reservedMemory])).toEqual(
      before,
    );
    const partial = placeBatch(cluster, specs, { allOrNothing: false });
    expect(partial.searches.map((s) => [s.spec.name, s.chosen?.choice.nodes.length ?? 0])).toEqual([
      ["s1", 1],
      ["big", 2],
      ["huge", 0],
    ]);
  });
});
