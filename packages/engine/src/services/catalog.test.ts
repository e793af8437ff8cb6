import { describe, expect, it } from "vitest";
import { createScriptletHost, EngineError } from "../index.js";
import { addGroups, addMember, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";

describe("renames", () => {
  it("renames groups, profiles, placement groups and empty projects; refuses while referenced", async () => {
    const { engine } = await testCluster();
    await addGroups(engine, "old");
    await addMember(engine, "n1", { groups: ["old"] });
    const busyGroup = await failure(engine.catalog.renameGroup("old", "new"));
    expect(busyGroup.kind).toBe("conflict");
    expect(busyGroup.message).toContain('Cluster group "old" can\'t be renamed while members belong to it');
    expect((await engine.catalog.listGroups()).map((g) => g.name)).toEqual(["default", "old"]);
    await engine.updateMember("n1", { groups: [] });
    expect(engine.getMember("n1").record.groups).toEqual(["default"]);
    expect((await engine.catalog.renameGroup("old", "new")).name).toBe("new");
    // LXD: the default group always exists (403 for deleting or renaming it).
    for (const change of [
      engine.catalog.deleteGroup("default"),
      engine.catalog.renameGroup("default", "x"),
    ]) {
      expect((await failure(change)).message).toMatch(
        /^The 'default' cluster group cannot be (deleted|renamed)$/,
      );
    }

    await engine.catalog.createProfile({
      project: "default",
      name: "web",
      description: "",
      config: {},
      devices: {},
    });
    await engine.createInstance({ name: "a", profiles: ["web"] });
    expect((await failure(engine.catalog.renameProfile("default", "web", "www"))).kind).toBe("conflict");
    await engine.deleteInstance("default", "a");
    expect((await engine.catalog.renameProfile("default", "web", "www")).name).toBe("www");
    expect((await failure(engine.catalog.renameProfile("default", "default", "x"))).kind).toBe("forbidden");

    await engine.catalog.createProject({ name: "p", description: "d", config: { "limits.instances": "3" } });
    const renamed = await engine.catalog.renameProject("p", "q");
    expect(renamed).toEqual({ name: "q", description: "d", config: { "limits.instances": "3" } });
    expect((await failure(engine.catalog.renameProject("default", "x"))).kind).toBe("forbidden");

    await engine.catalog.createPlacementGroup({
      project: "default",
      name: "pg",
      description: "",
      policy: "spread",
      rigor: "strict",
    });
    expect((await engine.catalog.renamePlacementGroup("default", "pg", "pg2")).name).toBe("pg2");
    await engine.createInstance({ name: "b", config: { "placement.group": "pg2" } });
  });

  it("renames a member that hosts nothing", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await addMember(engine, "n2");
    await engine.createInstance({ name: "a" }, { target: "n1" });
    expect((await failure(engine.renameMember("n1", "x"))).kind).toBe("conflict");
    expect((await failure(engine.renameMember("n2", "n1"))).kind).toBe("conflict");
    const renamed = await engine.renameMember("n2", "n9");
    expect(renamed.record.name).toBe("n9");
    expect(renamed.record.inventories.MEMORY_MB?.total).toBe(65536);
    expect(engine.listMembers().map((m) => m.record.name)).toEqual(["n1", "n9"]);
    expect((await engine.createInstance({ name: "b" })).instance.location).toBe("n9");
  });
});

describe("facade extras", () => {
  it("expands a stored instance with its profiles as they are now", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await engine.catalog.createProfile({
      project: "default",
      name: "net",
      description: "",
      config: { "user.a": "1", "user.b": "1" },
      devices: { eth0: { type: "nic", network: "br0" } },
    });
    const { instance } = await engine.createInstance({
      name: "a",
      profiles: ["net"],
      config: { "user.b": "2" },
    });
    expect(await engine.expandedInstance(instance)).toEqual({
      config: { "user.a": "1", "user.b": "2" },
      devices: { eth0: { type: "nic", network: "br0" } },
    });
  });

  it("reports the scriptlet cost of a real placement", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await engine.setConfig({
      "instances.placement.scriptlet": "def instance_placement(request, candidate_members):\n    return\n",
    });
    const outcome = await engine.createInstance({ name: "a" });
    expect(outcome.cost.steps).toBeGreaterThan(0);
  });

  it("exports the scriptlet host from the package root (berth scriptlet check)", () => {
    const host = createScriptletHost();
    expect(() =>
      host.validate("def instance_placement(request, candidate_members):\n    return\n"),
    ).not.toThrow();
    try {
      host.validate("foo");
      throw new Error("expected validate to throw");
    } catch (error) {
      expect(error).toBeInstanceOf(EngineError);
      expect((error as EngineError).kind).toBe("invalid");
    }
  });
});
