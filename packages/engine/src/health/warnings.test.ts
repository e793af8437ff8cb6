import { describe, expect, it } from "vitest";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";
import { WARNING_TYPES } from "./warning-conditions.js";

const HOUR = 3_600_000;

describe("the engine's warnings", () => {
  it("tells a scriptlet that failed to load from one that failed to run by where it failed", async () => {
    const { engine, store } = await testCluster();
    await addMember(engine, "n1");
    await engine.config.set({
      "instances.placement.scriptlet":
        "def instance_placement(request, candidate_members):\n    return 1 // 0\n",
    });
    await failure(engine.instances.create({ name: "a" }));
    // Validation keeps a source that does not compile out of the config; one stored by other means still loads (and fails) here.
    await store.setConfig({ "instances.placement.scriptlet": "def instance_placement(:\n" });
    await engine.sync();
    const notLoaded = await failure(engine.instances.create({ name: "b" }));
    expect(notLoaded.message).toBe(
      "Failed instance placement scriptlet: Instance placement scriptlet not loaded",
    );
    const byType = Object.fromEntries(
      (await engine.warnings.list()).map((warning) => [warning.type, warning]),
    );
    expect(byType[WARNING_TYPES.scriptletRun]).toMatchObject({ severity: "moderate", count: 1 });
    expect(byType[WARNING_TYPES.scriptletLoad]).toMatchObject({
      severity: "high",
      count: 1,
      last_message: notLoaded.message,
    });
  });

  it("warns of an evacuation longer than cluster.evacuation_warning_threshold, and resolves it on restore", async () => {
    const { engine, clock } = await testCluster();
    await engine.config.set({ "cluster.evacuation_warning_threshold": "3600" });
    await addMember(engine, "n1");
    await engine.members.evacuate("n1");
    const evacuation = async () =>
      (await engine.warnings.list()).find((warning) => warning.type === WARNING_TYPES.evacuated);
    expect(await evacuation()).toBeUndefined();
    clock.advance(HOUR + 1000);
    expect(await evacuation()).toMatchObject({ status: "new", location: "n1", severity: "low" });
    await engine.members.heartbeat("n1");
    await engine.members.restore("n1");
    expect((await evacuation())?.status).toBe("resolved");
  });

  it("warns of a member gone silent, and resolves it when it beats again", async () => {
    const { engine, clock } = await testCluster();
    await addMember(engine, "n1");
    const offline = async () =>
      (await engine.warnings.list()).find((warning) => warning.type === WARNING_TYPES.offline);
    expect(await offline()).toBeUndefined();
    clock.advance(60_000);
    expect(await offline()).toMatchObject({
      status: "new",
      location: "n1",
      entity_url: "/1.0/cluster/members/n1",
    });
    await engine.members.heartbeat("n1");
    expect((await offline())?.status).toBe("resolved");
  });

  it("keeps to a project when asked", async () => {
    const { engine, clock } = await testCluster();
    await addMember(engine, "n1");
    clock.advance(60_000);
    expect(await engine.warnings.list()).toHaveLength(1);
    expect(await engine.warnings.list("")).toHaveLength(1);
    expect(await engine.warnings.list("default")).toEqual([]);
  });

  it("files a failed scriptlet run under the placement's project, one warning per project; a load failure is the cluster's", async () => {
    const { engine, store } = await testCluster();
    await addMember(engine, "n1");
    await engine.catalog.createProject({ name: "blue", description: "", config: {} });
    await engine.config.set({
      "instances.placement.scriptlet":
        "def instance_placement(request, candidate_members):\n    return 1 // 0\n",
    });
    await failure(engine.instances.create({ name: "a" }));
    await failure(engine.instances.create({ name: "b" }, { project: "blue" }));
    await failure(engine.instances.create({ name: "c" }, { project: "blue" }));
    const runs = (await engine.warnings.list()).filter(
      (warning) => warning.type === WARNING_TYPES.scriptletRun,
    );
    expect(runs.map((warning) => [warning.project, warning.count]).sort()).toEqual([
      ["blue", 2],
      ["default", 1],
    ]);
    expect((await engine.warnings.list("blue")).map((warning) => warning.type)).toEqual([
      WARNING_TYPES.scriptletRun,
    ]);
    await store.setConfig({ "instances.placement.scriptlet": "def instance_placement(:\n" });
    await engine.sync();
    await failure(engine.instances.create({ name: "d" }, { project: "blue" }));
    const [load] = (await engine.warnings.list()).filter(
      (warning) => warning.type === WARNING_TYPES.scriptletLoad,
    );
    expect(load).toMatchObject({ project: "", entity_url: "/1.0" });
    expect(await engine.warnings.list("blue")).toHaveLength(1);
  });
});
