import { describe, expect, it } from "vitest";
import { addMember, testCluster } from "../testing/cluster.fixture.js";

describe("expandedInstance(s): a stored instance's expansion follows LXD's features.profiles", () => {
  it("matches the create's answer in projects with and without profiles of their own", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "n1");
    await engine.catalog.patchProfile("default", "default", { config: { "limits.cpu": "2" } });
    await engine.catalog.createProject({ name: "team", description: "", config: {} });
    await engine.catalog.createProject({
      name: "own",
      description: "",
      config: { "features.profiles": "true" },
    });
    await engine.catalog.createProfile({
      project: "own",
      name: "default",
      description: "",
      config: { "limits.cpu": "4" },
      devices: { root: { type: "disk", path: "/", pool: "own" } },
    });
    const team = await engine.createInstance({ name: "t" }, { project: "team" });
    const own = await engine.createInstance(
      { name: "o", devices: { eth0: { type: "nic" } } },
      { project: "own" },
    );
    // `team` has no profiles of its own: the default project's default profile applies.
    expect(team.expanded.config).toEqual({ "limits.cpu": "2" });
    expect(own.expanded).toEqual({
      config: { "limits.cpu": "4" },
      devices: { root: { type: "disk", path: "/", pool: "own" }, eth0: { type: "nic" } },
    });
    expect(await engine.expandedInstance(team.instance)).toEqual(team.expanded);
    expect(await engine.expandedInstances([own.instance, team.instance])).toEqual([
      own.expanded,
      team.expanded,
    ]);
  });
});
