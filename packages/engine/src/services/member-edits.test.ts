import { describe, expect, it } from "vitest";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";

describe("member and group edits (one home: the engine)", () => {
  it("a member PATCH merges config key by key into the current record", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1", { config: { "user.a": "1", "user.b": "2" } });
    const patched = await engine.patchMember("m1", { config: { "user.b": "3" }, description: "rack 4" });
    expect(patched.record.config).toEqual({ "user.a": "1", "user.b": "3" });
    expect(patched.record.description).toBe("rack 4");
    expect(patched.record.groups).toEqual(["default"]);
  });

  it("concurrent PATCHes of different config keys both land", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1", { config: { "user.a": "1" } });
    await Promise.all([
      engine.patchMember("m1", { config: { "user.b": "2" } }),
      engine.patchMember("m1", { config: { "user.c": "3" } }),
    ]);
    expect(engine.getMember("m1").record.config).toEqual({ "user.a": "1", "user.b": "2", "user.c": "3" });
  });

  it("a PATCH with a bad merged config is refused and writes nothing", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "m1");
    const error = await failure(engine.patchMember("m1", { config: { "scheduler.instance": "never" } }));
    expect(error.kind).toBe("invalid");
    expect(engine.getMember("m1").record.config).toEqual({});
  });

  it("a group's member list is replaced at once; an unknown member changes nothing", async () => {
    const { engine } = await testCluster();
    await engine.catalog.createGroup({ name: "gpu", description: "" });
    await addMember(engine, "m1", { groups: ["gpu"] });
    await addMember(engine, "m2");
    const error = await failure(engine.setGroupMembers("gpu", ["m2", "ghost"]));
    expect([error.kind, error.message]).toEqual(["not_found", 'Cluster member "ghost" not found']);
    expect(engine.getMember("m1").record.groups).toEqual(["default", "gpu"]);
    await engine.setGroupMembers("gpu", ["m2"]);
    expect(engine.getMember("m1").record.groups).toEqual(["default"]);
    expect(engine.getMember("m2").record.groups).toEqual(["default", "gpu"]);
  });

  it('server config: "" unsets a key, in a PATCH and in a PUT', async () => {
    const { engine } = await testCluster();
    await engine.setConfig({ "user.x": "1", "user.y": "2" });
    expect((await engine.setConfig({ "user.x": "" })).values).toEqual({ "user.y": "2" });
    expect((await engine.replaceConfig({ "user.y": "", "user.z": "3" })).values).toEqual({ "user.z": "3" });
  });
});
