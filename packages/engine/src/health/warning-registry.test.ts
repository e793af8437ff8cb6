import { describe, expect, it } from "vitest";
import { ManualClock } from "../base/clock.js";
import { isEngineError } from "../base/errors.js";
import { type WarningCondition, WarningRegistry } from "./warning-registry.js";

const OFFLINE: WarningCondition = {
  type: "Offline cluster member",
  location: "n1",
  project: "",
  entityUrl: "/1.0/cluster/members/n1",
  message: "n1 is offline",
  severity: "high",
};
const TYPES = [OFFLINE.type];

describe("WarningRegistry", () => {
  it("counts each occurrence of an event and keeps its first and last seen times", () => {
    const clock = new ManualClock("2026-01-01T00:00:00.000Z");
    const registry = new WarningRegistry(clock);
    registry.raise({ ...OFFLINE, message: "first" });
    clock.advance(60_000);
    registry.raise({ ...OFFLINE, message: "second" });
    const [warning] = registry.list();
    expect(warning).toMatchObject({
      count: 2,
      first_seen_at: "2026-01-01T00:00:00.000Z",
      last_seen_at: "2026-01-01T00:01:00.000Z",
      last_message: "second",
      status: "new",
      entity_url: OFFLINE.entityUrl,
    });
  });

  it("counts a derived condition once however often it is observed, and resolves it when it ends", () => {
    const clock = new ManualClock();
    const registry = new WarningRegistry(clock);
    registry.observe(TYPES, [OFFLINE]);
    clock.advance(1000);
    registry.observe(TYPES, [OFFLINE]);
    expect(registry.list()).toMatchObject([
      { count: 1, status: "new", last_seen_at: clock.now().toISOString() },
    ]);
    registry.observe(TYPES, []);
    expect(registry.list()).toMatchObject([{ count: 1, status: "resolved" }]);
    // It holds again: a second occurrence, new again.
    registry.observe(TYPES, [OFFLINE]);
    expect(registry.list()).toMatchObject([{ count: 2, status: "new" }]);
  });

  it("resolves only the types it is told about", () => {
    const registry = new WarningRegistry(new ManualClock());
    registry.raise({ ...OFFLINE, type: "Placement scriptlet failed to run" });
    registry.observe(TYPES, []);
    expect(registry.list()).toMatchObject([{ status: "new" }]);
  });

  it("keeps an acknowledgement while the condition holds", () => {
    const registry = new WarningRegistry(new ManualClock());
    registry.observe(TYPES, [OFFLINE]);
    const uuid = registry.list()[0]!.uuid;
    expect(registry.setStatus(uuid, "acknowledged").status).toBe("acknowledged");
    registry.observe(TYPES, [OFFLINE]);
    expect(registry.get(uuid).status).toBe("acknowledged");
  });

  it("a deleted warning whose condition still holds comes back new, under a new UUID", () => {
    const registry = new WarningRegistry(new ManualClock());
    registry.observe(TYPES, [OFFLINE]);
    const uuid = registry.list()[0]!.uuid;
    registry.delete(uuid);
    expect(registry.list()).toEqual([]);
    let missing: unknown;
    try {
      registry.get(uuid);
    } catch (error) {
      missing = error;
    }
    expect(isEngineError(missing, "not_found")).toBe(true);
    registry.observe(TYPES, [OFFLINE]);
    const [back] = registry.list();
    expect(back).toMatchObject({ status: "new", count: 1 });
    expect(back!.uuid).not.toBe(uuid);
  });

  it("keeps one warning per project for the same type and entity, and deletes only the one named", () => {
    const registry = new WarningRegistry(new ManualClock());
    const run = { ...OFFLINE, type: "Placement scriptlet failed to run", location: "", entityUrl: "/1.0" };
    registry.raise({ ...run, project: "blue" });
    registry.raise({ ...run, project: "blue" });
    registry.raise({ ...run, project: "default" });
    const byProject = Object.fromEntries(registry.list().map((warning) => [warning.project, warning]));
    expect(byProject.blue?.count).toBe(2);
    expect(byProject.default?.count).toBe(1);
    registry.delete(byProject.blue!.uuid);
    expect(registry.list().map((warning) => warning.project)).toEqual(["default"]);
  });
});
