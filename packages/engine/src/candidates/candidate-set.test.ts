import { describe, expect, it } from "vitest";
import { EngineError } from "../base/errors.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";

/** Logs every candidate with its reported free memory, then targets the member named in the request's description. */
const LISTING_SCRIPTLET = `
def instance_placement(request, candidate_members):
    for m in candidate_members:
        log_info(m.server_name, ":", get_cluster_member_state(m.server_name).sysinfo.free_ram)
    if request.description != "":
        set_target(request.description)
`;

describe("the candidate set as a scriptlet sees it", () => {
  it("lists the members that fit, in load order, with their states, and drops a member once it is full", async () => {
    const { engine } = await testCluster();
    for (const [name, vcpu] of [
      ["n0", 2],
      ["n1", 8],
      ["n2", 8],
    ] as const) {
      await addMember(engine, name, { vcpu });
      await engine.heartbeat(name, { sysinfo: { free_ram: vcpu * 1000 } });
    }
    await engine.setConfig({ "instances.placement.scriptlet": LISTING_SCRIPTLET });
    const seen = async (name: string, description = "") => {
      const result = await engine.dryRun({ name, description, config: { "limits.cpu": "2" } });
      return result.logs.map((line) => line.message);
    };
    expect(await seen("a")).toEqual(["n0:2000", "n1:8000", "n2:8000"]);
    // Two CPUs on n0 fill it: the next request of the same size no longer lists it.
    await engine.createInstance({ name: "a", description: "n0", config: { "limits.cpu": "2" } });
    expect(await seen("b")).toEqual(["n1:8000", "n2:8000"]);
    // A member that is not a candidate is refused, with LXD's text.
    await expect(
      engine.createInstance({ name: "b", description: "n0", config: { "limits.cpu": "2" } }),
    ).rejects.toThrow("Failed instance placement scriptlet: Failed to run: Invalid member name: n0");
    // Freed capacity brings it back.
    await engine.deleteInstance("default", "a");
    expect(await seen("c")).toEqual(["n0:2000", "n1:8000", "n2:8000"]);
    const placed = await engine.createInstance({
      name: "c",
      description: "n1",
      config: { "limits.cpu": "2" },
    });
    expect(placed.instance.location).toBe("n1");
    // n1 now has one instance: it moves behind the empty members.
    expect(await seen("d")).toEqual(["n0:2000", "n2:8000", "n1:8000"]);
    await expect(
      engine.createInstance({ name: "e", description: "nope", config: { "limits.cpu": "2" } }),
    ).rejects.toBeInstanceOf(EngineError);
  });
});
