import { describe, expect, it } from "vitest";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import type { EngineEvent, EngineLifecycleEvent } from "./events.js";

async function watched() {
  const { engine, clock } = await testCluster();
  for (const name of ["n1", "n2"]) await addMember(engine, name);
  const events: EngineEvent[] = [];
  const stop = engine.events.subscribe((event) => events.push(event));
  const lifecycle = () =>
    events
      .filter((event): event is EngineLifecycleEvent => event.type === "lifecycle")
      .map((event) => [event.action, event.instance ?? event.member, event.context]);
  return { engine, clock, events, lifecycle, stop };
}

describe("the engine's event stream", () => {
  it("tells creates, reservations, commits, bulk creates, updates, renames and deletes", async () => {
    const { engine, lifecycle } = await watched();
    const created = await engine.createInstance({ name: "a" }, { target: "n1" });
    const reserved = await engine.createInstance({ name: "r", forthcoming: true }, { target: "n2" });
    await engine.commitReservation("default", "r");
    await engine.bulkCreate([{ name: "b1" }, { name: "b2" }], { target: "n2" });
    await engine.updateInstance("default", "a", { config: { "limits.cpu": "1" } });
    await engine.renameInstance("default", "a", "a2");
    await engine.deleteInstance("default", "a2");
    expect(lifecycle()).toEqual([
      ["instance-created", "a", { location: "n1", decided_by: "target", uuid: created.instance.id }],
      ["instance-reserved", "r", { location: "n2", decided_by: "target", uuid: reserved.instance.id }],
      ["instance-reservation-committed", "r", { location: "n2", uuid: reserved.instance.id }],
      ["instance-created", "b1", expect.objectContaining({ location: "n2", decided_by: "bulk" })],
      ["instance-created", "b2", expect.objectContaining({ location: "n2", decided_by: "bulk" })],
      ["instance-updated", "a", { location: "n1" }],
      ["instance-renamed", "a2", { old_name: "a", location: "n1" }],
      ["instance-deleted", "a2", {}],
    ]);
  });

  it("tells moves, evacuations and restores, one event per instance moved", async () => {
    const { engine, lifecycle } = await watched();
    await engine.createInstance({ name: "a" }, { target: "n1" });
    await engine.moveInstance("default", "a", "n2");
    await engine.evacuateMember("n2");
    await engine.restoreMember("n2");
    expect(lifecycle().slice(1)).toEqual([
      ["instance-moved", "a", { from: "n1", to: "n2", reason: "move", decided_by: "target" }],
      ["instance-moved", "a", { from: "n2", to: "n1", reason: "evacuation" }],
      ["cluster-member-evacuated", "n2", { reason: "evacuation", moved: 1, stayed: 0 }],
      ["instance-moved", "a", { from: "n1", to: "n2", reason: "restore" }],
      ["cluster-member-restored", "n2", { moved: 1 }],
    ]);
  });

  it("sends the scriptlet's log_* lines as logging events", async () => {
    const { engine, events } = await watched();
    await engine.setConfig({
      "instances.placement.scriptlet":
        'def instance_placement(request, candidate_members):\n    log_info("hello ", request.name)\n',
    });
    await engine.createInstance({ name: "a" });
    expect(events.filter((event) => event.type === "logging")).toEqual([
      {
        type: "logging",
        level: "info",
        message: "Instance placement scriptlet: hello a",
        context: { instance: "a", project: "default", reason: "new" },
      },
    ]);
  });

  it("builds nothing while nobody listens, and a failing listener never fails the operation", async () => {
    const { engine, events, stop } = await watched();
    stop();
    expect(engine.events.active).toBe(false);
    let built = 0;
    engine.events.lifecycle(() => {
      built += 1;
      return { action: "instance-deleted", context: {} };
    });
    expect(built).toBe(0);
    engine.events.subscribe(() => {
      throw new Error("broken listener");
    });
    await expect(engine.createInstance({ name: "a" })).resolves.toBeDefined();
    expect(events).toEqual([]);
  });
});
