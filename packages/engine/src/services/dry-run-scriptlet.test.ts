/**
 * Dry runs of a scriptlet that is not the configured one
 * (`dryRun(body, { scriptletSource })`, what `berth scriptlet test` uses):
 * validated like a config set, run instead of the configured scriptlet,
 * compiled once per distinct source, and never touching the configuration.
 */
import { describe, expect, it } from "vitest";
import { createScriptletHost } from "../scriptlet/index.js";
import { addMember, testCluster } from "../testing/cluster.fixture.js";
import { failure } from "../testing/failure.fixture.js";

const TARGET_NODE1 = `def instance_placement(request, candidate_members):
    set_target("node1")
`;

const TARGET_LAST = `def instance_placement(request, candidate_members):
    log_info("candidates: ", len(candidate_members))
    set_target(candidate_members[-1].server_name)
`;

const REJECT = `def instance_placement(request, candidate_members):
    log_warn("no room for ", request.name)
    return "full"
`;

/** An engine whose real Starlark host reports every compilation. */
async function clusterCountingCompiles() {
  const compiled: string[] = [];
  const cluster = await testCluster({
    scriptletHost: createScriptletHost({ onCompile: (s) => compiled.push(s) }),
  });
  for (const name of ["node1", "node2", "node3"]) await addMember(cluster.engine, name);
  return { ...cluster, compiled };
}

describe("dryRun with scriptletSource", () => {
  it("runs the given scriptlet instead of the configured one and leaves the configuration alone", async () => {
    const { engine } = await clusterCountingCompiles();
    const config = await engine.setConfig({ "instances.placement.scriptlet": TARGET_NODE1 });

    const dry = await engine.dryRun({ name: "web" }, { scriptletSource: TARGET_LAST });
    expect(dry.decision).toEqual({ outcome: "placed", member: "node3", decidedBy: "scriptlet" });
    expect(dry.candidates).toEqual(["node1", "node2", "node3"]);
    expect(dry.scriptletRan).toBe(true);
    expect(dry.logs.map((line) => line.message)).toEqual(["candidates: 3"]);
    expect(dry.cost.steps).toBeGreaterThan(0);

    expect(await engine.getConfig()).toEqual(config);
    expect((await engine.dryRun({ name: "web" })).decision).toEqual({
      outcome: "placed",
      member: "node1",
      decidedBy: "scriptlet",
    });
    expect((await engine.createInstance({ name: "web" })).instance.location).toBe("node1");
  });

  it("works without a configured scriptlet, and an empty source dry-runs the default policy", async () => {
    const { engine } = await clusterCountingCompiles();
    await engine.createInstance({ name: "a" });
    const proposed = await engine.dryRun({ name: "b" }, { scriptletSource: TARGET_NODE1 });
    expect(proposed.decision).toEqual({ outcome: "placed", member: "node1", decidedBy: "scriptlet" });

    await engine.setConfig({ "instances.placement.scriptlet": TARGET_NODE1 });
    const none = await engine.dryRun({ name: "b" }, { scriptletSource: "" });
    expect(none.scriptletRan).toBe(false);
    // node1 hosts "a": the default policy takes the least loaded member.
    expect(none.decision).toEqual({ outcome: "placed", member: "node2", decidedBy: "default" });
  });

  it("reports a rejection by the proposed scriptlet with its logs, as a dry-run result", async () => {
    const { engine } = await clusterCountingCompiles();
    const dry = await engine.dryRun({ name: "db" }, { scriptletSource: REJECT });
    expect(dry.decision.outcome).toBe("rejected");
    expect(dry.decision.outcome === "rejected" && dry.decision.error.message).toBe(
      'Failed instance placement scriptlet: Failed with return value: "full"',
    );
    expect(dry.decision.outcome === "rejected" && dry.decision.error.kind).toBe("scriptlet");
    expect(dry.scriptletRan).toBe(true);
    expect(dry.logs.map((line) => [line.level, line.message])).toEqual([["warn", "no room for db"]]);
  });

  it("refuses an invalid scriptlet with the config set's message (kind invalid) before placing anything", async () => {
    const { engine } = await clusterCountingCompiles();
    const bad = "def instance_placement(request, candidate_members):\n    foo()\n";
    const dry = await failure(engine.dryRun({ name: "x" }, { scriptletSource: bad }));
    expect(dry.kind).toBe("invalid");
    expect(dry.message).toBe(
      'Cannot set "instances.placement.scriptlet" to "def instance_placement(request, candidate_members):\\n    foo()\\n": instance_placement:2:5: undefined: foo',
    );
    const set = await failure(engine.setConfig({ "instances.placement.scriptlet": bad }));
    expect(set.message).toBe(dry.message);

    const wrongSignature = "def instance_placement(req, members):\n    pass\n";
    expect((await failure(engine.dryRun({ name: "x" }, { scriptletSource: wrongSignature }))).message).toBe(
      `Cannot set "instances.placement.scriptlet" to "def instance_placement(req, members):\\n    pass\\n": the required function "instance_placement" defines arguments ["members" "req"] (expected ["candidate_members" "request"])`,
    );
    // Validation comes first: an unknown project does not hide a bad scriptlet.
    expect(
      (await failure(engine.dryRun({ name: "x" }, { project: "nope", scriptletSource: bad }))).kind,
    ).toBe("invalid");
  });

  it("a member target skips the proposed scriptlet, as it skips the configured one", async () => {
    const { engine } = await clusterCountingCompiles();
    const dry = await engine.dryRun({ name: "x" }, { target: "node2", scriptletSource: TARGET_NODE1 });
    expect(dry.decision).toEqual({ outcome: "placed", member: "node2", decidedBy: "target" });
    expect(dry.scriptletRan).toBe(false);
  });

  it("compiles each proposed source once and never evicts the configured scriptlet's program", async () => {
    const { engine, compiled } = await clusterCountingCompiles();
    await engine.setConfig({ "instances.placement.scriptlet": TARGET_NODE1 });
    await engine.createInstance({ name: "warm" });
    const configuredCompiles = compiled.filter((s) => s === TARGET_NODE1).length;

    for (let i = 0; i < 3; i++) {
      const dry = await engine.dryRun({ name: `t${i}` }, { scriptletSource: TARGET_LAST });
      // "warm" is on node1, so node1 is the last candidate now.
      expect(dry.decision).toEqual({ outcome: "placed", member: "node1", decidedBy: "scriptlet" });
    }
    expect(compiled.filter((s) => s === TARGET_LAST)).toHaveLength(1);

    // Many distinct proposals: the configured scriptlet still runs from its cache.
    for (let i = 0; i < 10; i++) {
      const source = `${TARGET_LAST}# proposal ${i}\n`;
      await engine.dryRun({ name: "p" }, { scriptletSource: source });
    }
    await engine.createInstance({ name: "after" });
    expect(compiled.filter((s) => s === TARGET_NODE1)).toHaveLength(configuredCompiles);
  });
});

describe("get_instances() shows each instance's expansion (#15 item 9)", () => {
  it("carries flavor-derived limits.cpu, limits.memory and root size, as the API's expanded_config does", async () => {
    const { engine } = await testCluster();
    await addMember(engine, "node1", { diskGb: 100 });
    await engine.catalog.createFlavor({ name: "m1.small", vcpus: 2, memory_mb: 1024, disk_gb: 7 });
    await engine.createInstance({
      name: "sized",
      flavor: "m1.small",
      devices: { root: { type: "disk", path: "/", pool: "default" } },
    });
    const source = [
      "def instance_placement(request, candidate_members):",
      '    i = [i for i in get_instances() if i.name == "sized"][0]',
      '    log_info(i.expanded_config["limits.cpu"], " ", i.expanded_config["limits.memory"], " ", i.config)',
      '    log_info(i.expanded_devices["root"]["size"], " ", i.devices["root"].get("size", "unset"))',
      "",
    ].join("\n");
    const dry = await engine.dryRun({ name: "next" }, { scriptletSource: source });
    const record = (await engine.listInstances()).find((i) => i.name === "sized")!;
    const shown = await engine.expandedInstance(record);
    expect(shown.config).toMatchObject({ "limits.cpu": "2", "limits.memory": "1024MiB" });
    expect(dry.logs.map((line) => line.message)).toEqual([
      `${shown.config["limits.cpu"]} ${shown.config["limits.memory"]} {}`,
      `${shown.devices.root?.size} unset`,
    ]);
    expect(shown.devices.root?.size).toBe("7GiB");
  });
});
