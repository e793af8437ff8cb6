/**
 * The member mirror follows deletes and renames: the main thread's record and the worker's copy
 * drop members the cluster no longer has (so neither grows with every name ever seen), a new
 * member takes a freed slot, and the worker answers only for the run's candidates.
 */
import { describe, expect, it } from "vitest";
import { TEST_SCRIPTLET_LIMITS } from "../../testing/scriptlet-limits.fixture.js";
import { createPlainClusterView } from "../plain-cluster.js";
import type { ClusterMemberView, ScriptletCall } from "../port.js";
import { MirrorReceiver, MirrorSender } from "./member-mirror.js";

const view = (name: string): ClusterMemberView => ({ server_name: name, status: "Online" });

/** A run over a cluster of `members` (each a fresh view, as after a change), with `candidates` of them. */
function callOf(members: ClusterMemberView[], candidates: string[]): ScriptletCall {
  const byName = new Map(members.map((member) => [member.server_name, member]));
  return {
    request: { name: "web", project: "default", reason: "new" },
    candidates: candidates.map((name) => byName.get(name)!),
    instanceResources: { cpu_cores: 0, memory_size: 0, root_disk_size: 0 },
    cluster: createPlainClusterView({
      members,
      states: Object.fromEntries(members.map((m) => [m.server_name, { sysinfo: { free_ram: 1 } }])),
    }),
    limits: TEST_SCRIPTLET_LIMITS,
  };
}

/** One run through both sides, as the pool and the worker do it. */
function runOnce(sender: MirrorSender, receiver: MirrorReceiver, call: ScriptletCall) {
  const { candidates, updates, dropped } = sender.prepare(call, false);
  receiver.begin(candidates, updates, dropped);
  return { dropped };
}

describe("the worker's member mirror", () => {
  it("drops a deleted member on both sides once a run no longer has it as a candidate", () => {
    const sender = new MirrorSender();
    const receiver = new MirrorReceiver();
    const [a, b, c] = [view("a"), view("b"), view("c")];
    runOnce(sender, receiver, callOf([a, b, c], ["a", "b", "c"]));
    expect([sender.size, receiver.size]).toEqual([3, 3]);
    // b deleted: the next run's cluster does not know it.
    const { dropped } = runOnce(sender, receiver, callOf([a, c], ["a", "c"]));
    expect(dropped).toHaveLength(1);
    expect([sender.size, receiver.size]).toEqual([2, 2]);
    expect(receiver.candidate("b")).toBeUndefined();
    expect(receiver.views().map((v) => v.server_name)).toEqual(["a", "c"]);
  });

  it("keeps a member that exists but is not a candidate of this run", () => {
    const sender = new MirrorSender();
    const receiver = new MirrorReceiver();
    const [a, b] = [view("a"), view("b")];
    const both = callOf([a, b], ["a", "b"]);
    runOnce(sender, receiver, both);
    const { dropped } = runOnce(sender, receiver, { ...both, candidates: [a] });
    expect(dropped).toEqual([]);
    expect([sender.size, receiver.size]).toEqual([2, 2]);
    // Not a candidate: the worker does not answer for it (the main thread does).
    expect(receiver.candidate("b")).toBeUndefined();
    // Unchanged and a candidate again: nothing is sent for it.
    expect(sender.prepare(both, false).updates).toEqual([]);
  });

  it("follows a rename: the old name is forgotten, the new one seen, and a new member reuses the freed slot", () => {
    const sender = new MirrorSender();
    const receiver = new MirrorReceiver();
    const [a, b] = [view("a"), view("b")];
    runOnce(sender, receiver, callOf([a, b], ["a", "b"]));
    const renamed = view("b2");
    runOnce(sender, receiver, callOf([a, renamed], ["a", "b2"]));
    expect([sender.size, receiver.size]).toEqual([2, 2]);
    expect(receiver.candidate("b")).toBeUndefined();
    expect(receiver.candidate("b2")?.view).toEqual(renamed);
    // Many deletes and creates later the mirror still holds only the members that exist.
    let members = [a, renamed];
    for (let round = 0; round < 50; round++) {
      members = [a, view(`n${round}`)];
      runOnce(
        sender,
        receiver,
        callOf(
          members,
          members.map((m) => m.server_name),
        ),
      );
    }
    expect([sender.size, receiver.size]).toEqual([2, 2]);
    expect(receiver.views().map((v) => v.server_name)).toEqual(["a", "n49"]);
    expect(receiver.candidate("n48")).toBeUndefined();
  });
});
