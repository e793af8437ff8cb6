import { describe, expect, it } from "vitest";
import { clusterOf, node, spec } from "../testing/snapshot.fixture.js";
import { changeGroup, evacuateInstance, relocateInstance } from "./moves.js";

function cluster() {
  const c = clusterOf([
    node("a", "g1", 7000),
    node("b", "g1", 7000),
    node("c", "g1", 7000),
    node("d", "g1", 7000),
    node("z", "g2", 7000),
    node("y", "g2", 7000),
  ]);
  c.addExisting(spec("db", "drbd", 2048), ["a", "b"]);
  return c;
}

describe("moving placed instances", () => {
  it("fails over to the secondary: the pair swaps, the reserve moves with it", () => {
    const c = cluster();
    expect(evacuateInstance(c, "db", "primary-only")).toMatchObject({
      moved: true,
      nodes: ["b", "a"],
      steps: [{ kind: "failover" }],
    });
    expect(c.nodes.get("a")!.reservedMemory).toBe(2048);
    expect(c.nodes.get("b")!.reservedMemory).toBe(0);
    expect(c.nodes.get("b")!.freeMemory).toBe(7000 - 2048);
  });

  it("replaces the secondary, freeing the old one's disk and reserve", () => {
    const c = cluster();
    const moved = relocateInstance(c, "db", "b");
    expect(moved.moved && moved.nodes[0]).toBe("a");
    expect(c.nodes.get("b")!.reservedMemory).toBe(0);
    // The input's free disk counted the copy: moving it away frees it.
    expect(c.nodes.get("b")!.freeDisk).toBe(100_000 + 1024);
  });

  it("moves to a whole new pair, in its group or another", () => {
    const c = cluster();
    const all = evacuateInstance(c, "db", "all");
    expect(all.moved && [...all.nodes].sort()).toEqual(["c", "d"]);
    const other = changeGroup(c, "db", []);
    expect(other.moved && [...other.nodes].sort()).toEqual(["y", "z"]);
    expect(other.moved && other.group).toBe("two");
  });

  it("leaves an instance where it was when it fits nowhere else", () => {
    const c = clusterOf([node("a", "g1", 7000), node("b", "g1", 7000)]);
    c.addExisting(spec("db", "drbd", 2048), ["a", "b"]);
    const outcome = evacuateInstance(c, "db", "all");
    expect(outcome.moved).toBe(false);
    expect(c.instances.get("db")!.nodes).toEqual(["a", "b"]);
    expect(c.nodes.get("b")!.reservedMemory).toBe(2048);
  });

  it("refuses to move a local-storage instance", () => {
    const c = cluster();
    c.addExisting(spec("local", "plain", 512), ["c"]);
    expect(evacuateInstance(c, "local", "all")).toEqual({
      moved: false,
      reason: "Instance local has local storage and cannot move",
    });
  });
});
